import styles from "@/components/charts/FlameLegend.module.css";
import { flameColor } from "@/lib/tokens";

const Swatches = ({ tone }: { tone: "grew" | "shrank" }) => (
  <span className={styles.ramp} aria-hidden="true">
    {flameColor[tone].map((c) => (
      <span key={c} className={styles.swatch} style={{ background: c }} />
    ))}
  </span>
);

/** The differential flame graph's colours in words. */
export function FlameLegend() {
  return (
    <ul className={styles.legend} aria-label="Differential flame graph legend" data-testid="flame-legend">
      <li>
        <Swatches tone="grew" />
        Red: grew from base to head (darker: by more of the frame&apos;s cost)
      </li>
      <li>
        <Swatches tone="shrank" />
        Blue: shrank
      </li>
      <li>
        <span className={styles.swatch} style={{ background: flameColor.same }} aria-hidden="true" />
        Grey: unchanged (under 0.5 %)
      </li>
    </ul>
  );
}
