import { useMemo } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Card } from "@/components/ui/Card";
import { Section } from "@/components/ui/Page";
import { Empty, Loading } from "@/components/ui/States";
import { lazyModule } from "@/hooks/useLazyModule";
import { formatParameters, shortCommit } from "@/lib/format";
import { CompareTable } from "@/features/compare/components/CompareTable";

const changeBarChart = lazyModule(() => import("@/components/charts/ChangeBarChart"));

type Row = Schemas["CompareRow"];

/** Bar labels "benchmark · metric", with the parameters only where the name alone is ambiguous. */
function barLabels(rows: readonly Row[]): Map<Row, string> {
  const short = (r: Row) => `${r.benchmark} · ${r.metric}`;
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(short(r), (seen.get(short(r)) ?? 0) + 1);
  return new Map(
    rows.map((r) => [
      r,
      (seen.get(short(r)) ?? 0) > 1 ? `${short(r)} (${formatParameters(r.parameters)})` : short(r),
    ]),
  );
}

function RunRef({ label, run }: { label: string; run: Schemas["Comparison"]["base"] }) {
  return (
    <>
      <Link to={`/runs/${run.id}`}>
        {label} #{run.id}
      </Link>{" "}
      <span className="mono">{shortCommit(run.commit)}</span> ({run.branch})
    </>
  );
}

/** Two runs side by side: a bar per shared series (worst first), then the table. */
export function ComparisonView({ comparison }: { comparison: Schemas["Comparison"] }) {
  const ChangeBarChart = changeBarChart.useModule()?.ChangeBarChart;
  const rows = useMemo(
    () => [...comparison.rows].sort((a, b) => (b.change_pct ?? -Infinity) - (a.change_pct ?? -Infinity)),
    [comparison.rows],
  );
  const labels = useMemo(() => barLabels(rows), [rows]);
  if (rows.length === 0)
    return (
      <Empty title="These runs share no series">
        Pick two runs of the same system, benchmarks and testbed.
      </Empty>
    );
  return (
    <>
      <p>
        <RunRef label="base" run={comparison.base} /> → <RunRef label="head" run={comparison.head} />
      </p>
      <Card as="section">
        <h2>Change per series (worse to the right)</h2>
        {!ChangeBarChart ? (
          <Loading label="Loading chart…" />
        ) : (
          <ChangeBarChart
            rows={rows.map((r) => ({
              label: labels.get(r) ?? r.metric,
              change_pct: r.change_pct,
              level: r.level,
              direction: r.direction,
            }))}
          />
        )}
      </Card>
      <Section>
        <CompareTable rows={rows} />
      </Section>
    </>
  );
}
