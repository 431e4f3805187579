import { useSearchParams } from "react-router";
import { isRunStatus } from "@/api/types";
import type { RunsFilter } from "@/features/runs/api/getRuns";

/** The runs list's filters live in the URL (?status=&system=&branch=&offset=). */
export function useRunsSearch(): [RunsFilter, (patch: Partial<RunsFilter>) => void] {
  const [params, setParams] = useSearchParams();
  const status = params.get("status");
  const filter: RunsFilter = {
    status: isRunStatus(status) ? status : null,
    system: params.get("system"),
    branch: params.get("branch"),
    offset: Math.max(0, Number(params.get("offset")) || 0),
  };
  const update = (patch: Partial<RunsFilter>) => {
    const next = { ...filter, offset: 0, ...patch };
    const out = new URLSearchParams();
    if (next.status) out.set("status", next.status);
    if (next.system) out.set("system", next.system);
    if (next.branch) out.set("branch", next.branch);
    if (next.offset) out.set("offset", String(next.offset));
    setParams(out);
  };
  return [filter, update];
}
