import { Button } from "@/components/ui/Button";
import { StageBadge, VerdictBadge } from "@/components/ui/VerdictBadge";
import { floorsText, floorsTitle, STAGES, toStage } from "@/lib/stage";
import { toLevel } from "@/lib/verdict";
import styles from "@/features/run/components/VerdictCell.module.css";
import { acceptable, type Measurement } from "@/features/run/hooks/measurementView";

interface VerdictCellProps {
  m: Measurement;
  /** Offered to a signed-in user: open the "accept as expected change" dialog for this row. */
  onAccept?: (m: Measurement) => void;
  /** The note of a change accepted here during this visit. */
  accepted?: string;
}

/** A measurement's verdict and stage, the sentence explaining them, its floors (or why nothing was judged). */
export function VerdictCell({ m, onAccept, accepted }: VerdictCellProps) {
  const floors = floorsText(m);
  // The sentence was written when the point arrived; a later confirmation or dismissal is said here.
  const settled = toStage(m.stage);
  return (
    <td className={styles.verdict}>
      <div className={styles.badges}>
        <VerdictBadge level={toLevel(m.level)} />
        <StageBadge stage={m.stage} />
      </div>
      <div className={styles.explanation} data-testid="explanation">
        {m.explanation}
      </div>
      {m.reason ? (
        <div className={styles.note} data-testid="not-judged">
          Not judged: {m.reason}
        </div>
      ) : floors ? (
        <div className={styles.note} data-testid="floors" title={floorsTitle(m)}>
          {floors}
        </div>
      ) : null}
      {settled === "confirmed" || settled === "dismissed" ? (
        <div className={styles.note} data-testid="stage-note">
          {STAGES[settled].label}: {STAGES[settled].description}.
        </div>
      ) : null}
      {accepted !== undefined ? (
        <div className={styles.accepted} data-testid="accepted-note">
          Accepted as expected: “{accepted}”
        </div>
      ) : onAccept && acceptable(m) ? (
        <Button variant="secondary" size="small" className={styles.accept} onClick={() => onAccept(m)}>
          Accept as expected change…
        </Button>
      ) : null}
    </td>
  );
}
