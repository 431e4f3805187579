import { Choice } from "@/components/ui/Choice";
import { Filters } from "@/components/ui/Filters";
import { viewValue, type Batch } from "@/features/system/hooks/batchSeries";
import type { SystemSearch } from "@/features/system/hooks/useSystemSearch";

interface SeriesControlsProps {
  batch: Batch | undefined;
  search: SystemSearch;
  onSearch: (patch: Partial<SystemSearch>) => void;
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** Which testbed × profile the page shows (with counts), a search and the "only changed" toggle. */
export function SeriesControls({ batch, search, onSearch }: SeriesControlsProps) {
  const views = batch?.views ?? [];
  const current = batch?.testbed ? viewValue(batch.testbed, batch.profile ?? null) : "";
  const listed = views.some((v) => viewValue(v.testbed, v.profile ?? null) === current);
  return (
    <Filters label="Series">
      <label>
        Testbed · profile
        <select
          data-testid="view-select"
          value={current}
          onChange={(e) => {
            const [testbed, profile] = JSON.parse(e.target.value) as [string, string | null];
            onSearch({ testbed, profile });
          }}
        >
          {!listed && batch?.testbed ? (
            <option value={current}>
              {batch.testbed} · {batch.profile ?? "any profile"}
            </option>
          ) : null}
          {views.map((v) => (
            <option
              key={viewValue(v.testbed, v.profile ?? null)}
              value={viewValue(v.testbed, v.profile ?? null)}
            >
              {v.testbed} · {v.profile ?? "no profile"} — {plural(v.runs, "run")},{" "}
              {v.series.toLocaleString("en-US")} series
            </option>
          ))}
        </select>
      </label>
      <label>
        Search
        <input
          type="search"
          data-testid="series-search"
          placeholder="benchmark, metric or parameter"
          value={search.q ?? ""}
          onChange={(e) => onSearch({ q: e.target.value || null })}
        />
      </label>
      <Choice
        type="checkbox"
        checked={search.changed}
        onChange={(e) => onSearch({ changed: e.target.checked })}
      >
        Only changed
      </Choice>
    </Filters>
  );
}
