import { useState } from "react";
import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { numCell } from "@/components/ui/Table";
import { formatRelative } from "@/lib/format";
import { BoundsCell } from "@/features/admin/components/BoundsCell";

interface ThresholdRowProps {
  metric: Schemas["MetricAdmin"];
  pending: boolean;
  onSave: (warn: number, fail: number) => void;
  onSaveBounds: (min: number | null, max: number | null) => void;
}

/** One metric: its thresholds and value range (editable) and who changed them last, when. */
export function ThresholdRow({ metric: m, pending, onSave, onSaveBounds }: ThresholdRowProps) {
  const [warn, setWarn] = useState(String(m.warn_threshold));
  const [fail, setFail] = useState(String(m.fail_threshold));
  const w = Number(warn);
  const f = Number(fail);
  const valid = warn !== "" && fail !== "" && w > 0 && f >= w && f <= 1000;
  const changed = w !== m.warn_threshold || f !== m.fail_threshold;
  const last = m.last_change;
  return (
    <tr data-testid="threshold-row" data-metric={m.name}>
      <td>{m.name}</td>
      <td>
        {m.unit} · {m.direction === "higher_is_better" ? "higher is better" : "lower is better"}
      </td>
      <td className={numCell}>
        <input
          aria-label={`warn % of ${m.name}`}
          type="number"
          min={0.1}
          step={0.5}
          value={warn}
          onChange={(e) => setWarn(e.target.value)}
        />
      </td>
      <td className={numCell}>
        <input
          aria-label={`fail % of ${m.name}`}
          type="number"
          min={0.1}
          step={0.5}
          value={fail}
          onChange={(e) => setFail(e.target.value)}
        />
      </td>
      <td>
        <BoundsCell metric={m} pending={pending} onSave={onSaveBounds} />
      </td>
      <td data-testid="threshold-audit">
        {last ? (
          `${last.by}, ${formatRelative(last.at)}${last.action === "bounds.set" ? " (range)" : ""}`
        ) : (
          <span className="muted">defaults, never changed</span>
        )}
      </td>
      <td>
        <Button size="small" disabled={!valid || !changed || pending} onClick={() => onSave(w, f)}>
          Save
        </Button>
        {!valid ? <span className="small"> 0 &lt; warn ≤ fail ≤ 1000</span> : null}
      </td>
    </tr>
  );
}
