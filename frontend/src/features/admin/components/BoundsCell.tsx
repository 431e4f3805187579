import { useState } from "react";
import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";

interface BoundsCellProps {
  metric: Schemas["MetricAdmin"];
  pending: boolean;
  onSave: (min: number | null, max: number | null) => void;
}

const shown = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));
const parsed = (text: string) => (text.trim() === "" ? null : Number(text));

/** A metric's value range, editable: uploads outside it are refused (empty: unbounded). */
export function BoundsCell({ metric: m, pending, onSave }: BoundsCellProps) {
  const [min, setMin] = useState(shown(m.min_value));
  const [max, setMax] = useState(shown(m.max_value));
  const low = parsed(min);
  const high = parsed(max);
  const numbers = [low, high].every((v) => v === null || Number.isFinite(v));
  const valid = numbers && (low === null || high === null || low <= high);
  const changed = low !== (m.min_value ?? null) || high !== (m.max_value ?? null);
  return (
    <span data-testid="bounds-cell">
      <input
        aria-label={`min of ${m.name}`}
        type="number"
        placeholder="−∞"
        value={min}
        onChange={(e) => setMin(e.target.value)}
      />{" "}
      …{" "}
      <input
        aria-label={`max of ${m.name}`}
        type="number"
        placeholder="∞"
        value={max}
        onChange={(e) => setMax(e.target.value)}
      />{" "}
      {m.unit}{" "}
      <Button size="small" disabled={!valid || !changed || pending} onClick={() => onSave(low, high)}>
        Save range
      </Button>
      {!valid ? <span className="small"> min ≤ max</span> : null}
    </span>
  );
}
