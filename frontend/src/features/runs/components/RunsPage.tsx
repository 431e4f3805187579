import { Link } from "react-router";
import { Button } from "@/components/ui/Button";
import { Page, PageHeader } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { Table } from "@/components/ui/Table";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatRelative, shortCommit } from "@/lib/format";
import { useSystemNames } from "@/features/runs/api/getSystemNames";
import { PAGE, useRuns, type RunsFilter } from "@/features/runs/api/getRuns";
import { RunsFilters } from "@/features/runs/components/RunsFilters";
import { VerdictCounts } from "@/features/runs/components/VerdictCounts";

interface Props {
  filter: RunsFilter;
  onFilter: (patch: Partial<RunsFilter>) => void;
}

const HEADINGS = [
  "Run",
  "System",
  "State",
  "Verdicts",
  "Commit / ref",
  "Branch",
  "Profile",
  "Trigger",
  "Started",
  "Progress",
];

/** Every run, newest first, with its verdict counts; filterable by system, branch and state. */
export function RunsPage({ filter, onFilter }: Props) {
  const runs = useRuns(filter);
  const systems = useSystemNames();
  const items = runs.data?.items ?? [];
  const total = runs.data?.total ?? 0;
  const paging = (
    <>
      <span className="muted small">
        {filter.offset + 1}–{filter.offset + items.length} of {total}
      </span>
      <Button
        size="small"
        disabled={filter.offset === 0}
        onClick={() => onFilter({ offset: Math.max(0, filter.offset - PAGE) })}
      >
        Newer
      </Button>
      <Button
        size="small"
        disabled={filter.offset + PAGE >= total}
        onClick={() => onFilter({ offset: filter.offset + PAGE })}
      >
        Older
      </Button>
    </>
  );
  return (
    <Page>
      <PageHeader title="Runs" />
      <RunsFilters filter={filter} systems={systems.data ?? []} onFilter={onFilter} />
      {runs.isPending ? <Loading label="Loading runs…" /> : null}
      {runs.isError ? <ErrorState error={runs.error} onRetry={() => void runs.refetch()} /> : null}
      {runs.data && items.length === 0 ? (
        <Empty title="No runs match">
          {filter.system || filter.branch || filter.status
            ? "No run matches these filters: clear one to see more."
            : "No run has been stored yet."}
        </Empty>
      ) : null}
      {items.length > 0 ? (
        <Table testId="runs-table" footer={paging}>
          <thead>
            <tr>
              {HEADINGS.map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((r) => (
              <tr key={r.id} data-testid="run-row" data-run={r.id} data-status={r.status}>
                <td>
                  <Link to={`/runs/${r.id}`}>#{r.id}</Link>
                </td>
                <td>
                  <Link to={`/systems/${encodeURIComponent(r.system)}`}>{r.system}</Link>
                </td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>
                  <VerdictCounts counts={r.counts} />
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
        </Table>
      ) : null}
    </Page>
  );
}
