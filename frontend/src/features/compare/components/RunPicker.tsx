import type { Schemas } from "@/api/types";
import { formatRelative, shortCommit } from "@/lib/format";

interface RunPickerProps {
  label: string;
  runs: readonly Schemas["RunSummary"][];
  value: number | null;
  onChange: (id: number | null) => void;
}

export function RunPicker({ label, runs, value, onChange }: RunPickerProps) {
  return (
    <label>
      {label}
      <select value={value ?? ""} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        <option value="">Pick a run…</option>
        {value !== null && !runs.some((r) => r.id === value) ? (
          <option value={value}>run #{value}</option>
        ) : null}
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            #{r.id} · {shortCommit(r.commit)} · {r.branch} · {formatRelative(r.started_at)}
          </option>
        ))}
      </select>
    </label>
  );
}
