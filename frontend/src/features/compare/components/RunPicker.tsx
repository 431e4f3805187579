import type { Schemas } from "@/api/types";
import { matchesWords, SearchPicker } from "@/components/ui/SearchPicker";
import { formatRelative, shortCommit } from "@/lib/format";

interface RunPickerProps {
  label: string;
  runs: readonly Schemas["RunSummary"][];
  value: number | null;
  onChange: (id: number | null) => void;
}

const describe = (r: Schemas["RunSummary"]) =>
  `#${r.id} · ${shortCommit(r.commit)} · ${r.branch} · ${r.profile ?? "—"} · ${formatRelative(r.started_at)}`;

const haystack = (r: Schemas["RunSummary"]) =>
  `#${r.id} ${r.id} ${r.commit ?? ""} ${r.branch} ${r.profile ?? ""} ${r.trigger} ${r.testbed ?? ""}`;

/** True when the run matches every word of the query (id, commit, branch, profile or trigger). */
export function matchesRun(r: Schemas["RunSummary"], query: string): boolean {
  return matchesWords(haystack(r), query);
}

/** A run picker with a search box: type a run id, a commit prefix, a branch or a profile to narrow the list. */
export function RunPicker({ label, runs, value, onChange }: RunPickerProps) {
  return (
    <SearchPicker
      label={label}
      items={runs}
      keyOf={(r) => String(r.id)}
      describe={describe}
      haystack={haystack}
      value={value === null ? null : String(value)}
      onChange={(key) => onChange(key === null ? null : Number(key))}
      searchLabel={`Search ${label.toLowerCase()} runs`}
      selectLabel={`${label} run`}
      plural="runs"
      placeholder="run id, commit, branch…"
      testId={`run-picker-${label.toLowerCase()}`}
    />
  );
}
