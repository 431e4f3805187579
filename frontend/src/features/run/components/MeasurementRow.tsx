import { Fragment } from "react";
import { Link } from "react-router";
import { Change } from "@/components/ui/Change";
import { nameCell, numCell } from "@/components/ui/Table";
import { formatParameters, formatPValue, formatValue } from "@/lib/format";
import { toLevel } from "@/lib/verdict";
import { MeasurementDetail } from "@/features/run/components/MeasurementDetail";
import styles from "@/features/run/components/MeasurementRow.module.css";
import { VerdictCell } from "@/features/run/components/VerdictCell";
import type { Measurement } from "@/features/run/hooks/measurementView";

interface MeasurementRowProps {
  m: Measurement;
  expanded: boolean;
  onToggle: () => void;
  /** Offered to a signed-in user: accept this row's change as expected. */
  onAccept?: (m: Measurement) => void;
  /** The note of a change accepted on this row during this visit. */
  accepted?: string;
}

/** A measurement's row (value, baseline, change, verdict, stage and why), and its samples on expand. */
export function MeasurementRow({ m, expanded, onToggle, onAccept, accepted }: MeasurementRowProps) {
  const level = toLevel(m.level);
  const detailId = `m-${m.measurement_id}-samples`;
  return (
    <Fragment>
      <tr
        className={styles[level]}
        data-testid="measurement-row"
        data-level={level}
        data-stage={m.stage ?? undefined}
        data-benchmark={m.benchmark}
        data-metric={m.metric}
      >
        <td>
          <button
            type="button"
            className={styles.expander}
            aria-expanded={expanded}
            aria-controls={detailId}
            onClick={onToggle}
            aria-label={expanded ? "Hide samples" : "Show samples"}
          >
            {expanded ? "▾" : "▸"}
          </button>
        </td>
        <td>
          <div className={nameCell}>{m.benchmark}</div>
          <div className="muted small">{formatParameters(m.parameters)}</div>
        </td>
        <td>
          <Link to={m.series_url}>{m.metric}</Link>
        </td>
        <td className={numCell}>
          {formatValue(m.value, m.unit, 4)}
          {m.stddev !== null && m.n > 1 ? (
            <div className="muted small">± {formatValue(m.stddev, m.unit, 2)}</div>
          ) : null}
        </td>
        <td className={numCell}>{formatValue(m.baseline, m.unit, 4)}</td>
        <td className={numCell}>
          <Change pct={m.change_pct} direction={m.direction} level={level} />
        </td>
        <VerdictCell m={m} onAccept={onAccept} accepted={accepted} />
        <td className={numCell}>{formatPValue(m.p_value)}</td>
      </tr>
      {expanded ? <MeasurementDetail m={m} id={detailId} /> : null}
    </Fragment>
  );
}
