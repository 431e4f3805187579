import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Change } from "@/components/ui/Change";
import { HealthBadge } from "@/components/ui/HealthBadge";
import { Section } from "@/components/ui/Page";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatParameters } from "@/lib/format";
import { levelHealth } from "@/lib/status";

/** The alerts whose step starts at this run, each linking to its alert and its chart. */
export function RunAlerts({ alerts }: { alerts: readonly Schemas["AlertRead"][] }) {
  if (!alerts.length) return null;
  return (
    <Section title="Alerts opened at this run" testId="run-alerts">
      <ul>
        {alerts.map((a) => {
          const params = formatParameters(a.parameters);
          return (
            <li key={a.id} data-testid="run-alert" data-alert-id={a.id}>
              <StatusBadge status={a.status} /> <HealthBadge health={levelHealth(a.level)} />{" "}
              <Link to={`/alerts?system=${encodeURIComponent(a.system)}&status=${a.status}`}>
                alert #{a.id}
              </Link>{" "}
              ·{" "}
              <Link to={a.series_url}>
                {a.benchmark}
                {params ? ` (${params})` : ""} · {a.metric}
              </Link>{" "}
              <Change pct={a.change_pct} direction={a.direction} level={a.level} />
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
