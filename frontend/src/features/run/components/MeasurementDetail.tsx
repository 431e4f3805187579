import { Fragment } from "react";
import { Link } from "react-router";
import { formatNumber, formatValue } from "@/lib/format";
import styles from "@/features/run/components/MeasurementRow.module.css";
import type { Measurement } from "@/features/run/hooks/measurementView";

const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? "—" : `${formatNumber(v, 3)} %`;

/** The expanded part of a measurement's row: its samples, statistics, baseline runs and floors. */
export function MeasurementDetail({ m, id }: { m: Measurement; id: string }) {
  return (
    <tr className={styles.detail} id={id}>
      <td />
      <td colSpan={7}>
        <div className={styles.samples}>
          <strong>{m.samples.length} samples</strong>
          <ol className={styles.sampleList} data-testid="samples">
            {m.samples.map((s, i) => (
              <li key={i}>{formatValue(s, m.unit, 5)}</li>
            ))}
          </ol>
        </div>
        <dl className={styles.stats}>
          <dt>mean</dt>
          <dd>{formatValue(m.mean, m.unit, 4)}</dd>
          <dt>median</dt>
          <dd>{formatValue(m.median, m.unit, 4)}</dd>
          <dt>min–max</dt>
          <dd>
            {formatValue(m.min, m.unit, 4)} – {formatValue(m.max, m.unit, 4)}
          </dd>
          <dt>cv</dt>
          <dd>{m.cv !== null ? `${formatNumber(m.cv * 100, 2)} %` : "—"}</dd>
          <dt>outliers removed</dt>
          <dd>{m.outliers_removed}</dd>
          <dt>noise test</dt>
          <dd>{m.gate ?? "—"}</dd>
          <dt>floors</dt>
          <dd>
            warn {pct(m.floor_warn)}, fail {pct(m.floor_fail)}
          </dd>
          <dt>run-to-run noise</dt>
          <dd>{pct(m.variation)}</dd>
          <dt>baseline runs</dt>
          <dd>
            {m.baseline_run_ids.length
              ? m.baseline_run_ids.map((id, i) => (
                  <Fragment key={id}>
                    {i ? ", " : ""}
                    <Link to={`/runs/${id}`}>#{id}</Link>
                  </Fragment>
                ))
              : "—"}
          </dd>
          <dt>thresholds</dt>
          <dd>
            warn {m.warn_threshold} %, fail {m.fail_threshold} %
          </dd>
        </dl>
      </td>
    </tr>
  );
}
