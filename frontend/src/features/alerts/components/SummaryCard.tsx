import { useState } from "react";
import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatRelative, shortCommit } from "@/lib/format";
import styles from "@/features/alerts/components/AlertItem.module.css";
import type { SummaryAction } from "@/features/alerts/api/alertSummaries";

interface SummaryCardProps {
  summary: Schemas["AlertSummaryRead"];
  signedIn: boolean;
  pending: boolean;
  onTriage: (action: SummaryAction) => void;
}

const pct = (v: number | null | undefined) => (v == null ? "" : `${v > 0 ? "+" : ""}${v.toFixed(1)} % worse`);

/** One alert summary: the series one culprit range slowed, its worst ones, and triage for all of them. */
export function SummaryCard({ summary: s, signedIn, pending, onTriage }: SummaryCardProps) {
  const [issue, setIssue] = useState(s.issue_url ?? "");
  const c = s.counts;
  return (
    <Card
      as="li"
      className={styles.item}
      data-testid="alert-summary"
      data-summary-id={s.id}
      data-status={s.status}
    >
      <div className={styles.main}>
        <StatusBadge status={s.status} />
        <span className={styles.title}>
          <strong>{s.system}</strong> · <span className="mono">{s.branch}</span> ·{" "}
          <span data-testid="summary-counts">
            {c.alerts} series ({c.fail} fail, {c.warn} warn) in {c.benchmarks} benchmarks
          </span>
        </span>
        {s.resolution ? <span data-testid="summary-resolution">{s.resolution}</span> : null}
      </div>
      <p className={styles.explanation}>
        Range{" "}
        {s.commits_url ? (
          <a href={s.commits_url} target="_blank" rel="noreferrer noopener">
            {shortCommit(s.last_good_commit)}…{shortCommit(s.first_bad_commit)}
          </a>
        ) : (
          <span className="mono">
            {shortCommit(s.last_good_commit)}…{shortCommit(s.first_bad_commit)}
          </span>
        )}{" "}
        · worst:{" "}
        {s.worst.map((w, i) => (
          <span key={w.id}>
            {i > 0 ? "; " : ""}
            {w.benchmark} · {w.metric} on {w.testbed} {pct(w.change_pct)}
          </span>
        ))}
      </p>
      <div className={styles.foot}>
        <span>
          opened {formatRelative(s.opened_at)}
          {s.acknowledged_at ? ` · acknowledged by ${s.acknowledged_by ?? "someone"}` : ""}
          {s.issue_url ? (
            <>
              {" "}
              · issue{" "}
              <a href={s.issue_url} target="_blank" rel="noreferrer noopener" data-testid="summary-issue">
                {s.issue_url}
              </a>
            </>
          ) : null}
        </span>
        {signedIn && s.status !== "resolved" ? (
          <span>
            {s.status === "open" ? (
              <Button
                size="small"
                disabled={pending}
                onClick={() => onTriage({ kind: "acknowledge", id: s.id })}
              >
                Acknowledge all
              </Button>
            ) : null}{" "}
            <Button
              size="small"
              disabled={pending}
              onClick={() => onTriage({ kind: "invalid", id: s.id, note: "marked invalid in the dashboard" })}
            >
              Mark invalid
            </Button>{" "}
            <input
              aria-label="Issue URL"
              value={issue}
              placeholder="https://…"
              onChange={(e) => setIssue(e.target.value)}
            />{" "}
            <Button
              size="small"
              disabled={pending || !issue}
              onClick={() => onTriage({ kind: "issue", id: s.id, issueUrl: issue })}
            >
              Link issue
            </Button>
          </span>
        ) : null}
      </div>
    </Card>
  );
}
