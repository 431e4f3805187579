import { Link } from "react-router";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatRelative, shortCommit } from "@/lib/format";
import { PAGE, useRuns, type RunsFilter } from "@/features/runs/api/getRuns";
import { STATES } from "@/features/runs/hooks/useRunsSearch";

interface Props {
  filter: RunsFilter;
  onFilter: (patch: Partial<RunsFilter>) => void;
}

/** Every run, newest first, filterable by state. */
export function RunsPage({ filter, onFilter }: Props) {
  const runs = useRuns(filter);
  return (
    <div className="page">
      <div className="page-head">
        <h1>Runs</h1>
        <div className="segmented" role="group" aria-label="Filter by state">
          {[null, ...STATES].map((s) => (
            <button
              key={s ?? "all"}
              type="button"
              aria-pressed={filter.status === s}
              className={filter.status === s ? "active" : ""}
              onClick={() => onFilter({ status: s })}
            >
              {s ?? "all"}
            </button>
          ))}
        </div>
      </div>
      {runs.isPending ? <Loading label="Loading runs…" /> : null}
      {runs.isError ? <ErrorState error={runs.error} onRetry={() => void runs.refetch()} /> : null}
      {runs.data && runs.data.items.length === 0 ? <Empty title="No runs match" /> : null}
      {runs.data && runs.data.items.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Run</th>
                <th>System</th>
                <th>State</th>
                <th>Commit / ref</th>
                <th>Branch</th>
                <th>Profile</th>
                <th>Trigger</th>
                <th>Started</th>
                <th>Progress</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.items.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/runs/${r.id}`}>#{r.id}</Link>
                  </td>
                  <td>
                    <Link to={`/systems/${r.system}`}>{r.system}</Link>
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td className="mono">{r.commit ? shortCommit(r.commit) : (r.ref ?? "—")}</td>
                  <td>{r.branch}</td>
                  <td>{r.profile ?? "—"}</td>
                  <td>{r.trigger}</td>
                  <td>{formatRelative(r.started_at)}</td>
                  <td>
                    {r.progress && typeof r.progress.percent === "number"
                      ? `${Math.round(r.progress.percent)} %`
                      : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="toolbar">
            <span className="muted small">
              {filter.offset + 1}–{filter.offset + runs.data.items.length} of {runs.data.total}
            </span>
            <button
              type="button"
              className="btn btn-small"
              disabled={filter.offset === 0}
              onClick={() => onFilter({ ...filter, offset: Math.max(0, filter.offset - PAGE) })}
            >
              Newer
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={filter.offset + PAGE >= runs.data.total}
              onClick={() => onFilter({ ...filter, offset: filter.offset + PAGE })}
            >
              Older
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
