import { RUN_STATES } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { Filters } from "@/components/ui/Filters";
import type { RunsFilter } from "@/features/runs/api/getRuns";

interface RunsFiltersProps {
  filter: RunsFilter;
  systems: readonly { slug: string; name: string }[];
  onFilter: (patch: Partial<RunsFilter>) => void;
}

/** System, branch and state filters of the runs list, with a visible "filters on" line to clear them. */
export function RunsFilters({ filter, systems, onFilter }: RunsFiltersProps) {
  const on = [
    filter.system ? `system ${filter.system}` : null,
    filter.branch ? `branch ${filter.branch}` : null,
    filter.status ? `state ${filter.status}` : null,
  ].filter(Boolean);
  const unknown =
    filter.system !== null && systems.length > 0 && !systems.some((s) => s.slug === filter.system);
  return (
    <>
      <Filters label="Filter runs">
        <label>
          System
          <select
            value={filter.system ?? ""}
            onChange={(e) => onFilter({ system: e.target.value || null })}
            data-testid="runs-system"
          >
            <option value="">every system</option>
            {unknown ? <option value={filter.system ?? ""}>{filter.system} (unknown)</option> : null}
            {systems.map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Branch
          <input
            type="search"
            placeholder="every branch"
            defaultValue={filter.branch ?? ""}
            key={filter.branch ?? ""}
            data-testid="runs-branch"
            onKeyDown={(e) => {
              if (e.key === "Enter") onFilter({ branch: e.currentTarget.value.trim() || null });
            }}
            onBlur={(e) => {
              const value = e.currentTarget.value.trim() || null;
              if (value !== filter.branch) onFilter({ branch: value });
            }}
          />
        </label>
        <label>
          State
          <select
            value={filter.status ?? ""}
            data-testid="runs-state"
            onChange={(e) => onFilter({ status: (e.target.value || null) as RunsFilter["status"] })}
          >
            <option value="">every state</option>
            {RUN_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </Filters>
      {on.length ? (
        <p className="small" data-testid="runs-filter-on">
          <strong>Filter on:</strong> {on.join(" · ")} ·{" "}
          <Button variant="link" onClick={() => onFilter({ system: null, branch: null, status: null })}>
            clear filters
          </Button>
        </p>
      ) : null}
      {unknown ? (
        <p role="alert" data-testid="runs-unknown-system">
          There is no system named <strong>{filter.system}</strong>. Known systems:{" "}
          {systems.map((s) => s.slug).join(", ")}.
        </p>
      ) : null}
    </>
  );
}
