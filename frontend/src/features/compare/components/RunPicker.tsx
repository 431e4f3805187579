import { useId, useState } from "react";
import type { Schemas } from "@/api/types";
import { formatRelative, shortCommit } from "@/lib/format";

interface RunPickerProps {
  label: string;
  runs: readonly Schemas["RunSummary"][];
  value: number | null;
  onChange: (id: number | null) => void;
}

const describe = (r: Schemas["RunSummary"]) =>
  `#${r.id} · ${shortCommit(r.commit)} · ${r.branch} · ${r.profile ?? "—"} · ${formatRelative(r.started_at)}`;

/** True when the run matches every word of the query (id, commit, branch, profile or trigger). */
export function matchesRun(r: Schemas["RunSummary"], query: string): boolean {
  const hay = `#${r.id} ${r.id} ${r.commit ?? ""} ${r.branch} ${r.profile ?? ""} ${r.trigger} ${r.testbed ?? ""}`;
  const lower = hay.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => lower.includes(word));
}

/** A run picker with a search box: type a run id, a commit prefix, a branch or a profile to narrow the list. */
export function RunPicker({ label, runs, value, onChange }: RunPickerProps) {
  const [query, setQuery] = useState("");
  const id = useId();
  const shown = query ? runs.filter((r) => matchesRun(r, query)) : runs;
  const picked = value === null ? undefined : runs.find((r) => r.id === value);
  return (
    <fieldset data-testid={`run-picker-${label.toLowerCase()}`}>
      <legend>{label}</legend>
      <input
        type="search"
        aria-label={`Search ${label.toLowerCase()} runs`}
        placeholder="run id, commit, branch…"
        value={query}
        aria-controls={id}
        onChange={(e) => {
          setQuery(e.target.value);
          const only = runs.filter((r) => matchesRun(r, e.target.value));
          if (e.target.value && only.length === 1) onChange(only[0]!.id);
        }}
      />
      <select
        id={id}
        aria-label={`${label} run`}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">
          {query ? `${shown.length} of ${runs.length} runs match…` : `Pick a run (${runs.length})…`}
        </option>
        {value !== null && !shown.some((r) => r.id === value) ? (
          <option value={value}>{picked ? describe(picked) : `run #${value}`}</option>
        ) : null}
        {shown.map((r) => (
          <option key={r.id} value={r.id}>
            {describe(r)}
          </option>
        ))}
      </select>
    </fieldset>
  );
}
