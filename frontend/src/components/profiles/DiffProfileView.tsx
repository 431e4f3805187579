import { useMemo } from "react";
import { Link } from "react-router";
import { FlameLegend } from "@/components/charts/FlameLegend";
import { flameGraphModule } from "@/components/charts/lazyFlameGraph";
import { DiffFunctionsTable } from "@/components/profiles/DiffFunctionsTable";
import styles from "@/components/profiles/Profiles.module.css";
import { Loading } from "@/components/ui/States";
import {
  formatSignedPct,
  formatWeight,
  toDiffFlameData,
  type DiffFunction,
  type DiffNode,
} from "@/lib/profiles";

interface Side {
  id: number;
  run_id: number;
  kind: string;
  unit: string;
  total: number;
}

export interface ProfileDiff {
  base: Side;
  head: Side;
  tree: DiffNode;
  functions: readonly DiffFunction[];
  elsewhere_pct: number;
}

/** A differential profile: totals base → head, the differential flame graph, its legend and its table. */
export function DiffProfileView({ diff, label }: { diff: ProfileDiff; label: string }) {
  const FlameGraph = flameGraphModule.useModule()?.FlameGraph;
  const data = useMemo(() => toDiffFlameData(diff.tree), [diff.tree]);
  const { base, head } = diff;
  const change = base.total > 0 ? (100 * (head.total - base.total)) / base.total : 0;
  return (
    <div data-testid="profile-diff">
      <p className={styles.summary}>
        {base.kind} profile of <Link to={`/runs/${base.run_id}`}>base run #{base.run_id}</Link>{" "}
        {formatWeight(base.total, base.unit)} →{" "}
        <Link to={`/runs/${head.run_id}`}>head run #{head.run_id}</Link> {formatWeight(head.total, head.unit)}{" "}
        <strong>({formatSignedPct(change)})</strong>
      </p>
      <div className={styles.graph}>
        {FlameGraph ? (
          <FlameGraph data={data} unit={head.unit} differential label={label} testId="diff-flame-graph" />
        ) : (
          <Loading label="Loading flame graph…" />
        )}
        <FlameLegend />
      </div>
      <DiffFunctionsTable functions={diff.functions} unit={head.unit} />
    </div>
  );
}
