import { useId, useState } from "react";

/** True when `haystack` holds every word of `query` (case-insensitive). */
export function matchesWords(haystack: string, query: string): boolean {
  const lower = haystack.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => lower.includes(word));
}

interface SearchPickerProps<T> {
  /** The fieldset's legend. */
  label: string;
  items: readonly T[];
  /** The option value of an item (unique). */
  keyOf: (item: T) => string;
  /** The option text of an item. */
  describe: (item: T) => string;
  /** The text the search words are looked for in. */
  haystack: (item: T) => string;
  value: string | null;
  onChange: (key: string | null) => void;
  /** Accessible names and words: the search box's, the select's, the items' plural. */
  searchLabel: string;
  selectLabel: string;
  plural: string;
  placeholder: string;
  testId?: string;
}

/** A select with a search box: type words to narrow the list; a single match is picked at once. */
export function SearchPicker<T>({
  label,
  items,
  keyOf,
  describe,
  haystack,
  value,
  onChange,
  searchLabel,
  selectLabel,
  plural,
  placeholder,
  testId,
}: SearchPickerProps<T>) {
  const [query, setQuery] = useState("");
  const id = useId();
  const matching = (q: string) => (q ? items.filter((i) => matchesWords(haystack(i), q)) : items);
  const shown = matching(query);
  const picked = value === null ? undefined : items.find((i) => keyOf(i) === value);
  return (
    <fieldset data-testid={testId}>
      <legend>{label}</legend>
      <input
        type="search"
        aria-label={searchLabel}
        placeholder={placeholder}
        value={query}
        aria-controls={id}
        onChange={(e) => {
          setQuery(e.target.value);
          const only = matching(e.target.value);
          if (e.target.value && only.length === 1) onChange(keyOf(only[0]!));
        }}
      />
      <select
        id={id}
        aria-label={selectLabel}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">
          {query
            ? `${shown.length} of ${items.length} ${plural} match…`
            : `Pick one of ${items.length} ${plural}…`}
        </option>
        {value !== null && !shown.some((i) => keyOf(i) === value) ? (
          <option value={value}>{picked ? describe(picked) : value}</option>
        ) : null}
        {shown.map((i) => (
          <option key={keyOf(i)} value={keyOf(i)}>
            {describe(i)}
          </option>
        ))}
      </select>
    </fieldset>
  );
}
