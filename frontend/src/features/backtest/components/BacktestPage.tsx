import { useMemo, useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Banner } from "@/components/ui/Banner";
import { Page, PageHeader, Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { describeProblem } from "@/lib/problem";
import { useBacktest, useSystem } from "@/features/backtest/api/backtest";
import { BacktestChart } from "@/features/backtest/components/BacktestChart";
import { BacktestForm } from "@/features/backtest/components/BacktestForm";
import { BacktestResults } from "@/features/backtest/components/BacktestResults";
import {
  initialForm,
  requestBody,
  seriesOptions,
  type BacktestForm as Form,
} from "@/features/backtest/hooks/shape";
import { useElapsed } from "@/features/backtest/hooks/useElapsed";

function Backtest({ system }: { system: Schemas["SystemDetail"] }) {
  const [form, setForm] = useState<Form>(() => initialForm(system));
  const [problems, setProblems] = useState<string[]>([]);
  const options = useMemo(() => seriesOptions(system), [system]);
  const replay = useBacktest();
  const elapsed = useElapsed(replay.isPending);
  const read = replay.data;
  const single = read && read.series.length === 1 && form.scope === "one" ? read.series[0] : undefined;

  const onReplay = () => {
    const out = requestBody(system.slug, form, options);
    if ("problems" in out) {
      setProblems(out.problems);
      return;
    }
    setProblems([]);
    replay.mutate(out.body);
  };

  return (
    <>
      <BacktestForm
        system={system}
        options={options}
        form={form}
        onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
        onReplay={onReplay}
        pending={replay.isPending}
      />
      {problems.length ? (
        <Banner tone="error" testId="backtest-problems">
          {problems.join(" ")}
        </Banner>
      ) : null}
      {replay.isPending ? (
        <div data-testid="backtest-progress">
          <Loading
            label={`Replaying ${form.scope === "one" ? "the series" : "every series"}… ${elapsed} s`}
          />
        </div>
      ) : replay.isError ? (
        <Banner tone="error" testId="backtest-error">
          {describeProblem(replay.error, "replay")}
        </Banner>
      ) : read ? (
        <div data-testid="backtest-results">
          {single ? (
            <Section title={`${single.benchmark} · ${single.metric}`}>
              <BacktestChart slug={system.slug} branch={read.branch} series={single} />
            </Section>
          ) : null}
          <BacktestResults slug={system.slug} branch={read.branch} read={read} />
        </div>
      ) : null}
    </>
  );
}

/** Replay a system's stored series under other thresholds: what would have opened beside what did. */
export function BacktestPage({ slug }: { slug: string }) {
  const system = useSystem(slug);
  if (system.isPending) return <Loading label="Loading system…" />;
  if (system.isError) return <ErrorState error={system.error} onRetry={() => void system.refetch()} />;
  const s = system.data;
  const crumbs = (
    <>
      <Link to="/">Overview</Link> / <Link to={`/systems/${encodeURIComponent(s.slug)}`}>{s.name}</Link> /{" "}
      <span>Backtest</span>
    </>
  );
  return (
    <Page>
      <PageHeader title={`Backtest ${s.name}`} crumbs={crumbs}>
        <p className="muted">
          Replay stored series through the detector under other thresholds, as if CI uploaded each run again,
          and compare the alerts that would have opened with those that did. Nothing is changed.
        </p>
      </PageHeader>
      <Backtest system={s} />
    </Page>
  );
}
