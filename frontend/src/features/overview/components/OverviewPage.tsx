import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { useSystems } from "@/features/overview/api/getSystems";
import { RecentRegressions } from "@/features/overview/components/RecentRegressions";
import { SystemCard } from "@/features/overview/components/SystemCard";

export function OverviewPage() {
  const systems = useSystems();
  return (
    <div className="page">
      <div className="page-head">
        <h1>Overview</h1>
        <p className="muted">The latest run of every system and the regressions that need a look.</p>
      </div>
      {systems.isPending ? (
        <Loading label="Loading systems…" />
      ) : systems.isError ? (
        <ErrorState error={systems.error} onRetry={() => void systems.refetch()} />
      ) : systems.data.length === 0 ? (
        <Empty title="No systems yet">
          Upload a result document or start a runner agent to see a system here.
        </Empty>
      ) : (
        <div className="card-grid">
          {systems.data.map((s) => (
            <SystemCard key={s.slug} system={s} />
          ))}
        </div>
      )}
      <section className="section">
        <h2 className="section-title">Recent regressions</h2>
        <RecentRegressions />
      </section>
    </div>
  );
}
