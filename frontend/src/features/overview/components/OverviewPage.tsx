import { Page, PageHeader, Section } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { useSystems } from "@/features/overview/api/getSystems";
import styles from "@/features/overview/components/OverviewPage.module.css";
import { RecentRegressions } from "@/features/overview/components/RecentRegressions";
import { SystemCard } from "@/features/overview/components/SystemCard";
import { worstFirst } from "@/features/overview/status";

export function OverviewPage() {
  const systems = useSystems();
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
          {worstFirst(systems.data).map((s) => (
            <SystemCard key={s.slug} system={s} />
          ))}
        </div>
      )}
    </Page>
  );
}
