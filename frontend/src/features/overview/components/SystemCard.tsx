import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { Sparkline } from "@/components/charts/Sparkline";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatRelative, formatValue, shortCommit } from "@/lib/format";
import { LEVELS, toLevel } from "@/lib/verdict";

function Counts({ counts }: { counts: Record<string, number> }) {
  const fail = counts.fail ?? 0;
  const warn = counts.warn ?? 0;
  return (
    <div className="counts">
      <span className={`count ${fail ? "count-fail" : "count-zero"}`} data-testid="fail-count">
        {fail} fail
      </span>
      <span className={`count ${warn ? "count-warn" : "count-zero"}`} data-testid="warn-count">
        {warn} warn
      </span>
    </div>
  );
}

export function SystemCard({ system }: { system: Schemas["SystemRead"] }) {
  const run = system.latest_run;
  const headline = system.headline;
  const latest = headline?.values[headline.values.length - 1];
  const level = toLevel(headline?.latest_level);
  const seriesLink = headline
    ? `/systems/${encodeURIComponent(system.slug)}?benchmark=${encodeURIComponent(headline.benchmark)}&metric=${encodeURIComponent(headline.metric)}`
    : `/systems/${encodeURIComponent(system.slug)}`;
  return (
    <article className="card system-card" data-testid="system-card" data-system={system.slug}>
      <header className="system-card-head">
        <div>
          <h2>
            <Link to={`/systems/${encodeURIComponent(system.slug)}`}>{system.name}</Link>
          </h2>
          {system.description ? <p className="muted small clamp">{system.description}</p> : null}
        </div>
        {system.language ? <span className="lang">{system.language}</span> : null}
      </header>
      <dl className="kv">
        <dt>Last run</dt>
        <dd>
          {run ? (
            <>
              <Link to={`/runs/${run.id}`} className="mono">
                {shortCommit(run.commit)}
              </Link>{" "}
              <span className="muted" title={run.started_at}>
                {formatRelative(run.started_at)}
              </span>{" "}
              <StatusBadge status={run.status} />
            </>
          ) : (
            <span className="muted">No runs yet</span>
          )}
        </dd>
        <dt title="Regressions in the latest run, and open alerts on any branch">Regressions</dt>
        <dd>
          <Counts counts={system.latest_counts} />
          {system.open_alerts ? (
            <Link
              to={`/alerts?system=${encodeURIComponent(system.slug)}`}
              className="count count-alert"
              data-testid="open-alerts"
            >
              {system.open_alerts} open alert{system.open_alerts === 1 ? "" : "s"}
            </Link>
          ) : null}
        </dd>
      </dl>
      {headline ? (
        <Link to={seriesLink} className="headline">
          <div className="headline-title">
            <span className="small muted">
              {headline.benchmark} · {headline.metric}
            </span>
            <span className="headline-value">
              {latest !== undefined ? formatValue(latest, headline.unit) : "—"}{" "}
              <span className={`change change-${level}`} title={LEVELS[level].description}>
                {formatChange(headline.latest_change_pct)} · {LEVELS[level].label}
              </span>
            </span>
          </div>
          <Sparkline
            values={headline.values}
            level={headline.latest_level}
            label={`${headline.metric} of ${headline.benchmark}, last ${headline.values.length} runs`}
          />
        </Link>
      ) : (
        <p className="muted small">No headline metric yet.</p>
      )}
    </article>
  );
}
