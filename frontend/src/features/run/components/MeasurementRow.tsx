import { Fragment } from "react";
import { Link } from "react-router";
import { Change } from "@/components/ui/Change";
import { nameCell, numCell } from "@/components/ui/Table";
import { VerdictBadge } from "@/components/ui/VerdictBadge";
import { formatNumber, formatParameters, formatPValue, formatValue } from "@/lib/format";
import { toLevel, verdictSentence } from "@/lib/verdict";
import styles from "@/features/run/components/MeasurementRow.module.css";
import type { Measurement } from "@/features/run/hooks/measurementView";

interface MeasurementRowProps {
  m: Measurement;
  expanded: boolean;
  onToggle: () => void;
}

/** A measurement's row (value, baseline, change, verdict and why), and its samples on expand. */
export function MeasurementRow({ m, expanded, onToggle }: MeasurementRowProps) {
  const level = toLevel(m.level);
  const sentence = m.explanation || verdictSentence(m);
  const detailId = `m-${m.measurement_id}-samples`;
  return (
    <Fragment>
      <tr className={styles[level]} data-testid="measurement-row" data-level={level}>
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
          <Change pct={m.change_pct} level={level} />
        </td>
        <td className={styles.verdict}>
          <VerdictBadge level={level} />
          <div className={styles.explanation} data-testid="explanation">
            {sentence}
          </div>
        </td>
        <td className={numCell}>{formatPValue(m.p_value)}</td>
      </tr>
      {expanded ? (
        <tr className={styles.detail} id={detailId}>
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
      ) : null}
    </Fragment>
  );
}
