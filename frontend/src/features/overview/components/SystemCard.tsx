import clsx from "clsx";
import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Sparkline } from "@/components/charts/Sparkline";
import { Badge } from "@/components/ui/Badge";
import { HealthBadge } from "@/components/ui/HealthBadge";
import { Card } from "@/components/ui/Card";
import { Change } from "@/components/ui/Change";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatRelative, formatValue, shortCommit } from "@/lib/format";
import { HEALTH, levelHealth } from "@/lib/status";
import { LEVELS, toLevel } from "@/lib/verdict";
import styles from "@/features/overview/components/SystemCard.module.css";
import { cardStatus } from "@/features/overview/status";

function Counts({ counts }: { counts: Record<string, number> }) {
  const fail = counts.fail ?? 0;
  const warn = counts.warn ?? 0;
  return (
    <div className={styles.counts}>
      <span className={clsx(styles.count, fail ? styles.fail : styles.zero)} data-testid="fail-count">
        {fail} fail
      </span>
      <span className={clsx(styles.count, warn ? styles.warn : styles.zero)} data-testid="warn-count">
        {warn} warn
      </span>
    </div>
  );
}

function Headline({ system }: { system: Schemas["SystemRead"] }) {
  const headline = system.headline;
  if (!headline) return <p className="muted small">No headline metric yet.</p>;
  const latest = headline.values[headline.values.length - 1];
  const level = toLevel(headline.latest_level);
  // A point still learning says so in the status model's words, as the card's status does.
  const word = levelHealth(level) === "not_judged" ? HEALTH.not_judged.label : LEVELS[level].label;
  const link = `/systems/${encodeURIComponent(system.slug)}?benchmark=${encodeURIComponent(headline.benchmark)}&metric=${encodeURIComponent(headline.metric)}`;
  return (
    <Link to={link} className={styles.headline}>
      <div className={styles.headlineTitle}>
        <span className="small muted">
          {headline.benchmark} · {headline.metric}
        </span>
        <span className={styles.headlineValue}>
          {latest !== undefined ? formatValue(latest, headline.unit) : "—"}{" "}
          <Change
            pct={headline.latest_change_pct}
            direction={headline.direction}
            level={level}
            title={LEVELS[level].description}
          >
            {" · "}
            <span data-testid="headline-status">{word}</span>
          </Change>
        </span>
      </div>
      <Sparkline
        values={headline.values}
        level={headline.latest_level}
        label={`${headline.metric} of ${headline.benchmark}, last ${headline.values.length} runs`}
      />
    </Link>
  );
}

/** One system on the overview: its latest run, regressions, open alerts and headline trend. */
export function SystemCard({
  system,
  alertLevel = null,
}: {
  system: Schemas["SystemRead"];
  /** The worst level of its open alerts, when the page read them. */
  alertLevel?: string | null;
}) {
  const run = system.latest_run;
  const slug = encodeURIComponent(system.slug);
  const status = cardStatus(system, alertLevel);
  return (
    <Card as="article" className={styles.card} data-testid="system-card" data-system={system.slug}>
      <header className={styles.head}>
        <div>
          <h2 className={styles.name}>
            <Link to={`/systems/${slug}`}>{system.name}</Link>
          </h2>
          {system.description ? <p className="muted small clamp">{system.description}</p> : null}
        </div>
        <div className={styles.badges}>
          <span data-testid="card-status">
            <HealthBadge health={status} />
          </span>
          {system.language ? <Badge tone="info">{system.language}</Badge> : null}
        </div>
      </header>
      <dl className={styles.facts}>
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
              to={`/alerts?system=${slug}`}
              className={clsx(styles.count, styles.alert)}
              data-testid="open-alerts"
            >
              {system.open_alerts} open alert{system.open_alerts === 1 ? "" : "s"}
            </Link>
          ) : null}
        </dd>
      </dl>
      <Headline system={system} />
    </Card>
  );
}
