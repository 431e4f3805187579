import { useMemo } from "react";
import { DiffProfileView } from "@/components/profiles/DiffProfileView";
import { Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { useSearchValue } from "@/hooks/useSearchId";
import { formatParameters } from "@/lib/format";
import { sharedProfiles, type SharedProfile } from "@/lib/profiles";
import { useRunProfiles, useRunsProfileDiff } from "@/features/compare/api/getProfiles";

const describe = (s: SharedProfile) => {
  const params = formatParameters(s.parameters);
  return `${s.benchmark}${params ? ` (${params})` : ""} · ${s.kind}`;
};

/**
 * When both runs have a profile of the same benchmark: pick one (kept in the URL as
 * `flame=<benchmark id>:<kind>`, the first by default) and see its differential flame graph.
 */
export function CompareProfiles({ base, head }: { base: number; head: number }) {
  const baseProfiles = useRunProfiles(base);
  const headProfiles = useRunProfiles(head);
  const shared = useMemo(
    () => sharedProfiles(baseProfiles.data ?? [], headProfiles.data ?? []),
    [baseProfiles.data, headProfiles.data],
  );
  const [picked, setPicked] = useSearchValue("flame");
  const choice = shared.find((s) => s.key === picked) ?? shared[0] ?? null;
  const diff = useRunsProfileDiff(base, head, choice);
  if (!choice) return null;
  return (
    <Section title="Compare profiles" testId="compare-profiles">
      <label>
        Profile{" "}
        <select value={choice.key} onChange={(e) => setPicked(e.target.value)}>
          {shared.map((s) => (
            <option key={s.key} value={s.key}>
              {describe(s)}
            </option>
          ))}
        </select>
      </label>
      {diff.isPending ? (
        <Loading label="Comparing profiles…" />
      ) : diff.isError ? (
        <ErrorState error={diff.error} onRetry={() => void diff.refetch()} />
      ) : (
        <DiffProfileView
          diff={diff.data}
          label={`Differential flame graph of ${describe(choice)}: base to head`}
        />
      )}
    </Section>
  );
}
