import { useMemo } from "react";
import { flameGraphModule } from "@/components/charts/lazyFlameGraph";
import { FunctionsTable } from "@/components/profiles/FunctionsTable";
import { Loading } from "@/components/ui/States";
import { formatNumber, formatParameters } from "@/lib/format";
import { formatWeight, toFlameData, type ProfileFunction, type ProfileNode } from "@/lib/profiles";
import styles from "@/features/run/components/ProfilesPanel.module.css";

export interface ProfileDetail {
  id: number;
  benchmark: string;
  parameters: Record<string, unknown>;
  kind: string;
  unit: string;
  metric?: string | null;
  total: number;
  stacks_count: number;
  tree: ProfileNode;
  functions: readonly ProfileFunction[];
}

/** One profile of the run: its flame graph and its top functions (the graph's text alternative). */
export function ProfileView({ profile }: { profile: ProfileDetail }) {
  const FlameGraph = flameGraphModule.useModule()?.FlameGraph;
  const data = useMemo(() => toFlameData(profile.tree), [profile.tree]);
  const params = formatParameters(profile.parameters);
  const name = `${profile.benchmark}${params ? ` (${params})` : ""}`;
  return (
    <div className={styles.view} data-testid="profile-view" data-profile-id={profile.id}>
      <h3 className={styles.heading}>
        {name} · {profile.kind} profile
      </h3>
      <p className="muted small">
        {formatWeight(profile.total, profile.unit)} over {formatNumber(profile.stacks_count)} stacks
        {profile.metric ? `; it explains the ${profile.metric} metric` : ""}.
      </p>
      {FlameGraph ? (
        <FlameGraph data={data} unit={profile.unit} label={`Flame graph of ${name}`} testId="flame-graph" />
      ) : (
        <Loading label="Loading flame graph…" />
      )}
      <FunctionsTable functions={profile.functions} total={profile.total} unit={profile.unit} />
    </div>
  );
}
