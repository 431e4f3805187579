import type { Schemas } from "@/api/types";
import { Filters } from "@/components/ui/Filters";
import { Segment, Segmented } from "@/components/ui/Segmented";
import { RANGES, type SystemSearch } from "@/features/system/hooks/useSystemSearch";

interface SystemFiltersProps {
  system: Schemas["SystemDetail"];
  profiles: readonly string[];
  search: SystemSearch;
  onSearch: (patch: Partial<SystemSearch>) => void;
  onWantProfiles: () => void;
  /** The batch page picks testbed and profile together (SeriesControls): no selects for them here. */
  viewPicker?: boolean;
}

const RANGE_LABEL: Record<string, string> = {
  "7d": "7 days",
  "30d": "30 days",
  "90d": "90 days",
  all: "All",
};

/** Branch, testbed, profile and date range of every chart on the page. */
export function SystemFilters({
  system,
  profiles,
  search,
  onSearch,
  onWantProfiles,
  viewPicker,
}: SystemFiltersProps) {
  const custom = Boolean(search.from || search.to);
  return (
    <Filters label="Filters">
      <label>
        Branch
        <select value={search.branch} onChange={(e) => onSearch({ branch: e.target.value })}>
          {system.branches.some((b) => b.name === search.branch) ? null : (
            <option value={search.branch}>{search.branch}</option>
          )}
          {system.branches.map((b) => (
            <option key={b.name} value={b.name}>
              {b.name}
            </option>
          ))}
        </select>
      </label>
      {viewPicker ? null : (
        <>
          <label>
            Testbed
            <select
              value={search.testbed ?? ""}
              onChange={(e) => onSearch({ testbed: e.target.value || null })}
            >
              <option value="">Latest used</option>
              {system.testbeds.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label>
            Profile
            <select
              value={search.profile ?? ""}
              onFocus={onWantProfiles}
              onPointerDown={onWantProfiles}
              onChange={(e) => onSearch({ profile: e.target.value || null })}
            >
              <option value="">Any</option>
              {profiles.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      <fieldset>
        <legend>Date range</legend>
        <Segmented role="group">
          {RANGES.map((r) => (
            <Segment
              key={r}
              selected={!custom && search.range === r}
              onSelect={() => onSearch({ range: r, from: null, to: null })}
            >
              {RANGE_LABEL[r]}
            </Segment>
          ))}
        </Segmented>
        <input
          type="date"
          aria-label="From"
          value={search.from ?? ""}
          onChange={(e) => onSearch({ from: e.target.value || null })}
        />
        <span className="muted">–</span>
        <input
          type="date"
          aria-label="To"
          value={search.to ?? ""}
          onChange={(e) => onSearch({ to: e.target.value || null })}
        />
      </fieldset>
    </Filters>
  );
}
