import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Choice } from "@/components/ui/Choice";
import { Section } from "@/components/ui/Page";
import { StatusBadge, VerdictBadge } from "@/components/ui/VerdictBadge";
import { Empty } from "@/components/ui/States";
import { nameCell, numCell, Table } from "@/components/ui/Table";
import { formatChange, formatDateTime, formatParameters, shortCommit } from "@/lib/format";
import styles from "@/features/backtest/components/BacktestPage.module.css";
import { countsText, differs, resultRows, seriesLink } from "@/features/backtest/hooks/shape";

type Read = Schemas["BacktestRead"];
type Series = Schemas["BacktestSeries"];

function Alerts({
  alerts,
  direction,
  which,
}: {
  alerts: Schemas["BacktestAlert"][];
  direction: string;
  which: string;
}) {
  if (alerts.length === 0) return <span className="muted">none</span>;
  return (
    <ul className={styles.alerts}>
      {alerts.map((a) => (
        <li
          key={`${a.kind}-${a.run_id}-${a.alert_id ?? ""}`}
          data-testid={`${which}-alert`}
          data-run={a.run_id}
          data-level={a.level}
          data-kind={a.kind}
        >
          <VerdictBadge level={a.level} /> {a.kind} {formatChange(a.change_pct, direction)} from{" "}
          <Link to={`/runs/${a.run_id}`}>#{a.run_id}</Link>{" "}
          <span className="mono">{shortCommit(a.commit)}</span>{" "}
          <span className="muted small">{formatDateTime(a.started_at)}</span>
          {a.status ? (
            <>
              {" "}
              <StatusBadge status={a.status} />
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Totals({ read }: { read: Read }) {
  const t = read.totals;
  const row = (label: string, c: Schemas["Counts"], testId: string) => (
    <tr data-testid={testId}>
      <th scope="row">{label}</th>
      <td className={numCell} data-testid="events">
        {c.events}
      </td>
      <td className={numCell} data-testid="per-100">
        {c.per_100_runs}
      </td>
      <td className={numCell}>{c.warn}</td>
      <td className={numCell}>{c.fail}</td>
      <td className={numCell}>{c.step}</td>
      <td className={numCell}>{c.drift}</td>
    </tr>
  );
  return (
    <Table testId="backtest-totals">
      <thead>
        <tr>
          <th scope="col">
            {t.series} series · {t.runs.toLocaleString("en-US")} runs
          </th>
          <th scope="col">Alerts</th>
          <th scope="col">Per 100 runs</th>
          <th scope="col">Warn</th>
          <th scope="col">Fail</th>
          <th scope="col">Step</th>
          <th scope="col">Drift</th>
        </tr>
      </thead>
      <tbody>
        {row(`Would have opened (${read.warn} / ${read.fail} %)`, t.would_open, "totals-would")}
        {row("Did open (current thresholds)", t.did_open, "totals-did")}
      </tbody>
    </Table>
  );
}

function SeriesRow({ slug, branch, s }: { slug: string; branch: string; s: Series }) {
  const params = formatParameters(s.parameters);
  return (
    <tr
      data-testid="backtest-row"
      data-benchmark={s.benchmark}
      data-metric={s.metric}
      data-differs={differs(s)}
    >
      <td className={nameCell}>
        <Link to={seriesLink(slug, branch, s)} data-testid="series-link">
          {s.benchmark} · {s.metric}
        </Link>
        {params ? <div className="muted small">{params}</div> : null}
      </td>
      <td>{s.testbed}</td>
      <td className={numCell}>{s.runs}</td>
      <td className={numCell}>
        {s.thresholds.warn} / {s.thresholds.fail} %
        <div className="muted small">
          now {s.current.warn} / {s.current.fail} %
        </div>
      </td>
      <td>
        <Alerts alerts={s.would_open} direction={s.direction} which="would" />
      </td>
      <td>
        <Alerts alerts={s.did_open} direction={s.direction} which="did" />
      </td>
    </tr>
  );
}

/** Totals, then each series' would-have-opened beside did-open alerts (those that differ first). */
export function BacktestResults({ slug, branch, read }: { slug: string; branch: string; read: Read }) {
  const [onlyDiffering, setOnlyDiffering] = useState(false);
  const rows = resultRows(read, onlyDiffering);
  return (
    <>
      <Section title="Totals" testId="backtest-summary">
        <Totals read={read} />
        <p className="muted small" data-testid="totals-text">
          Would have opened: {countsText(read.totals.would_open)}; did open:{" "}
          {countsText(read.totals.did_open)}. Each series replayed its newest {read.max_runs} runs (at most{" "}
          {read.limit.toLocaleString("en-US")} points per backtest).
        </p>
      </Section>
      <Section title="Series" testId="backtest-series">
        <Choice type="checkbox" checked={onlyDiffering} onChange={(e) => setOnlyDiffering(e.target.checked)}>
          Only series where they differ
        </Choice>
        {rows.length === 0 ? (
          <Empty title={onlyDiffering ? "No series differs" : "No series to replay"}>
            {onlyDiffering
              ? "These thresholds would have opened exactly the alerts that did open."
              : "This branch and testbed have no stored runs."}
          </Empty>
        ) : (
          <Table testId="backtest-table">
            <thead>
              <tr>
                <th scope="col">Series</th>
                <th scope="col">Testbed</th>
                <th scope="col">Runs</th>
                <th scope="col">Thresholds</th>
                <th scope="col">Would have opened</th>
                <th scope="col">Did open</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <SeriesRow
                  key={`${s.benchmark_id}-${s.metric}-${s.testbed}`}
                  slug={slug}
                  branch={branch}
                  s={s}
                />
              ))}
            </tbody>
          </Table>
        )}
      </Section>
    </>
  );
}
