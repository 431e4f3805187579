import type { AlertStatus } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { Page, PageHeader, Section } from "@/components/ui/Page";
import { Segment, Segmented } from "@/components/ui/Segmented";
import { ErrorState, Empty, Loading } from "@/components/ui/States";
import { useSignedInUser } from "@/lib/session";
import { useAcknowledgeAlert } from "@/features/alerts/api/acknowledgeAlert";
import { useAlerts } from "@/features/alerts/api/getAlerts";
import { useAlertSummaries, useTriageSummary } from "@/features/alerts/api/alertSummaries";
import { AlertItem } from "@/features/alerts/components/AlertItem";
import { SummaryCard } from "@/features/alerts/components/SummaryCard";
import styles from "@/features/alerts/components/AlertsPage.module.css";
import { ALERT_TABS, tabStatuses, type AlertsSearch } from "@/features/alerts/hooks/useAlertsSearch";

const TAB_LABEL = {
  active: "Open & acknowledged",
  open: "Open",
  acknowledged: "Acknowledged",
  resolved: "Resolved",
};

interface AlertsPageProps {
  search: AlertsSearch;
  onSearch: (patch: Partial<AlertsSearch>) => void;
}

/** Alerts by state, with Acknowledge for a signed-in user. */
export function AlertsPage({ search, onSearch }: AlertsPageProps) {
  const statuses = tabStatuses(search.tab);
  const alerts = useAlerts(statuses, search.system);
  const signedIn = Boolean(useSignedInUser());
  const ack = useAcknowledgeAlert();
  const summaries = useAlertSummaries(statuses, search.system);
  const triage = useTriageSummary();
  return (
    <Page>
      <PageHeader title="Alerts">
        <p className="muted">
          A change that crosses its floor is first only suspected; an alert opens once the step is confirmed
          (a change point, the next runs staying worse, or re-runs of the same commit) and names its first bad
          commit, one alert per step. It closes by itself when the series recovers, or when someone accepts
          the step as an expected change.
          {search.system ? (
            <>
              {" "}
              Showing <strong>{search.system}</strong> only ·{" "}
              <Button variant="link" onClick={() => onSearch({ system: null })}>
                show every system
              </Button>
            </>
          ) : null}
        </p>
      </PageHeader>
      <Segmented role="tablist" className={styles.tabs}>
        {ALERT_TABS.map((t) => (
          <Segment key={t} tab selected={search.tab === t} onSelect={() => onSearch({ tab: t })}>
            {TAB_LABEL[t]}
          </Segment>
        ))}
      </Segmented>
      {ack.isError ? <ErrorState error={ack.error} /> : null}
      {triage.isError ? <ErrorState error={triage.error} /> : null}
      {summaries.data && summaries.data.length > 0 ? (
        <Section
          testId="alert-summaries"
          title={
            <>
              Summaries{" "}
              <span className="muted">
                ({summaries.data.length}: alerts of one commit range, triaged as one)
              </span>
            </>
          }
        >
          <ul className={styles.list}>
            {summaries.data.map((s) => (
              <SummaryCard
                key={s.id}
                summary={s}
                signedIn={signedIn}
                pending={triage.isPending && triage.variables.id === s.id}
                onTriage={(action) => triage.mutate(action)}
              />
            ))}
          </ul>
        </Section>
      ) : null}
      {alerts.isPending ? (
        <Loading label="Loading alerts…" />
      ) : alerts.isError ? (
        <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} />
      ) : (
        statuses.map((status: AlertStatus) => {
          const list = alerts.data.filter((a) => a.status === status);
          return (
            <Section
              key={status}
              testId={`alerts-${status}`}
              title={
                <>
                  {TAB_LABEL[status]} <span className="muted">({list.length})</span>
                </>
              }
            >
              {list.length === 0 ? (
                <Empty title={`No ${status} alerts`} />
              ) : (
                <ul className={styles.list}>
                  {list.map((a) => (
                    <AlertItem
                      key={a.id}
                      alert={a}
                      signedIn={signedIn}
                      pending={ack.isPending && ack.variables === a.id}
                      onAcknowledge={(id) => ack.mutate(id)}
                    />
                  ))}
                </ul>
              )}
            </Section>
          );
        })
      )}
    </Page>
  );
}
