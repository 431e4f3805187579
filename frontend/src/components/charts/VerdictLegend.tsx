import clsx from "clsx";
import { MarkerIcon } from "@/components/charts/Marker";
import styles from "@/components/charts/VerdictLegend.module.css";
import { LEVELS, type Level } from "@/lib/verdict";

const SHOWN: Level[] = ["fail", "warn", "improved", "noisy", "unstable", "ok", "no_baseline"];

/** The chart legend in words: each verdict's marker shape and name, and what the lines and bands mean. */
export function VerdictLegend() {
  return (
    <ul className={styles.legend} aria-label="Chart legend">
      {SHOWN.map((l) => (
        <li key={l} title={LEVELS[l].description}>
          <MarkerIcon shape={LEVELS[l].shape} color={LEVELS[l].color} />
          {LEVELS[l].label}
        </li>
      ))}
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
