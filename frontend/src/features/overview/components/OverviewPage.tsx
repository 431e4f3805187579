import { Page, PageHeader, Section } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { useSystems } from "@/features/overview/api/getSystems";
import styles from "@/features/overview/components/OverviewPage.module.css";
import { RecentRegressions } from "@/features/overview/components/RecentRegressions";
import { SystemCard } from "@/features/overview/components/SystemCard";
import { useRecentRegressions } from "@/features/overview/api/getRecentRegressions";
import { alertLevelsBySystem, worstFirst } from "@/features/overview/status";

export function OverviewPage() {
  const systems = useSystems();
  // The same query as the list above (one request): the level of each system's open alerts.
  const alerts = useRecentRegressions();
  const levels = alertLevelsBySystem(alerts.data ?? []);
  return (
    <Page>
      <PageHeader title="Overview">
        <p className="muted">The regressions that need a look, then every system, worst first.</p>
      </PageHeader>
      <Section title="Recent regressions">
        <RecentRegressions />
      </Section>
      {systems.isPending ? (
        <Loading label="Loading systems…" />
      ) : systems.isError ? (
        <ErrorState error={systems.error} onRetry={() => void systems.refetch()} />
      ) : systems.data.length === 0 ? (
        <Empty title="No systems yet">
          Upload a result document or start a runner agent to see a system here.
        </Empty>
      ) : (
        <div className={styles.grid}>
          {worstFirst(systems.data, levels).map((s) => (
            <SystemCard key={s.slug} system={s} alertLevel={levels.get(s.slug) ?? null} />
          ))}
        </div>
      )}
    </Page>
  );
}
