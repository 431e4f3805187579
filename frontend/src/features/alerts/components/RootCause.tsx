import { useState } from "react";
import { DiffProfileView } from "@/components/profiles/DiffProfileView";
import { Button } from "@/components/ui/Button";
import { ErrorState, Loading } from "@/components/ui/States";
import { formatSignedPct, formatSignedWeight, type DiffFunction } from "@/lib/profiles";
import { useProfileDiff } from "@/features/alerts/api/getProfileDiff";
import styles from "@/features/alerts/components/RootCause.module.css";

export interface RootCauseData {
  kind: string;
  unit: string;
  base_profile_id: number;
  head_profile_id: number;
  functions: readonly DiffFunction[];
  summary: string;
}

function DiffGraph({ cause }: { cause: RootCauseData }) {
  const diff = useProfileDiff(cause.base_profile_id, cause.head_profile_id, true);
  if (diff.isPending) return <Loading label="Loading the differential profile…" />;
  if (diff.isError) return <ErrorState error={diff.error} onRetry={() => void diff.refetch()} />;
  return (
    <DiffProfileView diff={diff.data} label="Differential flame graph: last good run to first bad run" />
  );
}

/**
 * Which functions' cost grew from the last good run's profile to the first bad run's, most first,
 * and on demand the differential flame graph of the two.
 */
export function RootCause({ cause }: { cause: RootCauseData }) {
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.cause} data-testid="root-cause">
      <p className={styles.summary}>
        <strong>Where the cost grew</strong> ({cause.kind} profile):{" "}
        <span data-testid="root-cause-summary">{cause.summary}</span>
      </p>
      {cause.functions.length ? (
        <ol className={styles.functions} aria-label="Functions whose self cost grew, most first">
          {cause.functions.map((f) => (
            <li key={f.name} data-testid="root-cause-function">
              <span className={styles.fn}>{f.name}</span>{" "}
              <strong className={styles.grew}>{formatSignedPct(f.pct_of_base_total)}</strong>{" "}
              <span className="muted">({formatSignedWeight(f.delta_self, cause.unit)})</span>
            </li>
          ))}
        </ol>
      ) : null}
      <Button variant="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide the differential flame graph" : "Show the differential flame graph"}
      </Button>
      {open ? (
        <div className={styles.diff}>
          <DiffGraph cause={cause} />
        </div>
      ) : null}
    </div>
  );
}
