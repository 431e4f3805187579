import { useMemo } from "react";
import { Filters } from "@/components/ui/Filters";
import { Page, PageHeader } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { useComparison } from "@/features/compare/api/getComparison";
import { useRunChoices } from "@/features/compare/api/getRunChoices";
import { useSystemNames } from "@/features/compare/api/getSystemNames";
import { CompareProfiles } from "@/features/compare/components/CompareProfiles";
import { ComparisonView } from "@/features/compare/components/ComparisonView";
import { RunPicker } from "@/features/compare/components/RunPicker";
import type { CompareSearch } from "@/features/compare/hooks/useCompareSearch";

interface ComparePageProps {
  search: CompareSearch;
  onSearch: (patch: Partial<CompareSearch>) => void;
}

/** Pick a system and two of its runs; with only a head, the run before it is the base. */
export function ComparePage({ search, onSearch }: ComparePageProps) {
  const systems = useSystemNames();
  const runs = useRunChoices(search.system);
  const items = useMemo(() => runs.data?.items ?? [], [runs.data]);
  // With only a head picked, compare with the run before it on the same branch.
  const head = items.find((r) => r.id === search.head);
  const previous = head
    ? items.find((r) => r.branch === head.branch && r.started_at < head.started_at)
    : undefined;
  const base = search.base ?? previous?.id ?? null;
  const comparison = useComparison(base, search.head);
  return (
    <Page>
      <PageHeader title="Compare runs">
        <p className="muted">Pick two runs of one system: every series they share, side by side.</p>
      </PageHeader>
      <Filters label="Runs to compare">
        <label>
          System
          <select
            value={search.system ?? ""}
            onChange={(e) => onSearch({ system: e.target.value || null, base: null, head: null })}
          >
            <option value="">Pick a system…</option>
            {(systems.data ?? []).map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <RunPicker label="Base" runs={items} value={base} onChange={(id) => onSearch({ base: id })} />
        <RunPicker label="Head" runs={items} value={search.head} onChange={(id) => onSearch({ head: id })} />
      </Filters>
      {systems.isError ? <ErrorState error={systems.error} /> : null}
      {runs.isError ? <ErrorState error={runs.error} /> : null}
      {base === null || search.head === null ? (
        <Empty title="Pick two runs">Choose a system, then a base run and a head run.</Empty>
      ) : comparison.isPending ? (
        <Loading label="Comparing…" />
      ) : comparison.isError ? (
        <ErrorState
          error={comparison.error}
          onRetry={() => void comparison.refetch()}
          missing={`Run #${base} or #${search.head}`}
          back={{ to: "/compare", label: "Pick two other runs" }}
        />
      ) : (
        <>
          <ComparisonView comparison={comparison.data} />
          <CompareProfiles base={base} head={search.head} />
        </>
      )}
    </Page>
  );
}
