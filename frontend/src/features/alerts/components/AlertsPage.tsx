import { ErrorState, Empty, Loading } from "@/components/ui/States";
import { useMe } from "@/lib/auth";
import { useAcknowledgeAlert } from "@/features/alerts/api/acknowledgeAlert";
import { useAlerts } from "@/features/alerts/api/getAlerts";
import { AlertItem } from "@/features/alerts/components/AlertItem";
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

export function AlertsPage({ search, onSearch }: AlertsPageProps) {
  const alerts = useAlerts(tabStatuses(search.tab), search.system);
  const me = useMe();
  const ack = useAcknowledgeAlert();
  const groups = search.tab === "active" ? ["open", "acknowledged"] : [search.tab];
  return (
    <div className="page">
      <div className="page-head">
        <h1>Alerts</h1>
        <p className="muted">
          A fail verdict opens an alert; it closes by itself when the series recovers.
          {search.system ? (
            <>
              {" "}
              Showing <strong>{search.system}</strong> only ·{" "}
              <button type="button" className="btn-link" onClick={() => onSearch({ system: null })}>
                show every system
              </button>
            </>
          ) : null}
        </p>
      </div>
      <div className="segmented tabs" role="tablist">
        {ALERT_TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={search.tab === t}
            onClick={() => onSearch({ tab: t })}
          >
            {TAB_LABEL[t]}
          </button>
        ))}
      </div>
      {ack.isError ? <ErrorState error={ack.error} /> : null}
      {alerts.isPending ? (
        <Loading label="Loading alerts…" />
      ) : alerts.isError ? (
        <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} />
      ) : (
        groups.map((status) => {
          const list = alerts.data.filter((a) => a.status === status);
          return (
            <section key={status} className="section" data-testid={`alerts-${status}`}>
              <h2 className="section-title">
                {TAB_LABEL[status as keyof typeof TAB_LABEL]} <span className="muted">({list.length})</span>
              </h2>
              {list.length === 0 ? (
                <Empty title={`No ${status} alerts`} />
              ) : (
                <ul className="alert-list">
                  {list.map((a) => (
                    <AlertItem
                      key={a.id}
                      alert={a}
                      signedIn={Boolean(me.data)}
                      pending={ack.isPending && ack.variables === a.id}
                      onAcknowledge={(id) => ack.mutate(id)}
                    />
                  ))}
                </ul>
              )}
            </section>
          );
        })
      )}
    </div>
  );
}
