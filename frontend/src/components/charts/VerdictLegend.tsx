import clsx from "clsx";
import { MarkerIcon } from "@/components/charts/Marker";
import styles from "@/components/charts/VerdictLegend.module.css";
import { STAGES } from "@/lib/stage";
import { color } from "@/lib/tokens";
import { LEVELS, type Level } from "@/lib/verdict";

const SHOWN: Level[] = ["fail", "warn", "improved", "noisy", "unstable", "ok", "learning", "no_baseline"];

/** The chart legend in words: verdict shapes, the stages, and what the lines, marks and bands mean. */
export function VerdictLegend() {
  return (
    <ul className={styles.legend} aria-label="Chart legend">
      {SHOWN.map((l) => (
        <li key={l} title={LEVELS[l].description}>
          <MarkerIcon shape={LEVELS[l].shape} color={LEVELS[l].color} />
          {LEVELS[l].label}
        </li>
      ))}
      <li title={STAGES.suspected.description}>
        <MarkerIcon shape="triangleDown" color={LEVELS.fail.color} outline />
        Outline: suspected, not yet confirmed
      </li>
      <li title={STAGES.dismissed.description}>
        <MarkerIcon shape="triangleDown" color={color.muted} outline />
        Grey outline: dismissed by re-runs
      </li>
      <li title="A confirmed step, at its first bad run; grey once resolved">
        <span className={clsx(styles.rule, styles.step)} aria-hidden="true" />
        Confirmed step (first bad run)
      </li>
      <li title="A step accepted as expected: the baseline restarts there">
        <span className={clsx(styles.rule, styles.change)} aria-hidden="true" />
        Accepted change
      </li>
      <li>
        <span className={clsx(styles.swatch, styles.baseline)} aria-hidden="true" />
        Baseline
      </li>
      <li>
        <span className={clsx(styles.swatch, styles.range)} aria-hidden="true" />
        Min–max of samples
      </li>
      <li>
        <span className={clsx(styles.swatch, styles.warn)} aria-hidden="true" />
        Warn zone
      </li>
      <li>
        <span className={clsx(styles.swatch, styles.fail)} aria-hidden="true" />
        Fail zone
      </li>
    </ul>
  );
}
