import type { Schemas } from "@/api/types";

let nextId = 1;

/** A measurement with its verdict, as GET /api/v1/runs/{id} returns it. */
export function measurement(overrides: Partial<Schemas["VerdictRead"]> = {}): Schemas["VerdictRead"] {
  const id = nextId++;
  return {
    measurement_id: id,
    benchmark: "medium_concurrency",
    parameters: { threads: 4 },
    params_key: '{"threads":4}',
    metric: "requests_per_second",
    unit: "req/s",
    direction: "higher_is_better",
    value: 16_500,
    n: 5,
    mean: 16_500,
    median: 16_500,
    stddev: 40,
    min: 16_450,
    max: 16_560,
    cv: 0.002,
    outliers_removed: 0,
    samples: [16_450, 16_480, 16_500, 16_520, 16_560],
    baseline: 16_480,
    baseline_run_ids: [41, 42, 43, 44, 45],
    baseline_source: "median",
    change_pct: -0.1,
    p_value: null,
    z_score: null,
    gate: null,
    level: "ok",
    warn_threshold: 5,
    fail_threshold: 10,
    floor_warn: 5,
    floor_fail: 10,
    variation: 0.8,
    stage: null,
    reason: null,
    explanation: "Within 5 % of the median of runs #41–#45 (0.1 % faster than the median of runs #41–#45).",
    series_url: "/systems/uvhttp?benchmark=medium_concurrency&metric=requests_per_second&branch=main",
    ...overrides,
  };
}

/** A run summary, as GET /api/v1/runs lists it (and RunDetail.reruns holds). */
export function runSummary(overrides: Partial<Schemas["RunSummary"]> = {}): Schemas["RunSummary"] {
  const id = nextId++;
  return {
    id,
    system: "uvhttp",
    branch: "main",
    commit: "9f1c2e7aa1",
    status: "completed",
    trigger: "rerun",
    profile: "quick",
    ref: "9f1c2e7aa1",
    rerun_of: null,
    counts: {},
    created_at: "2026-11-20T10:00:00Z",
    started_at: "2026-11-20T10:00:00Z",
    finished_at: "2026-11-20T10:02:00Z",
    external_id: null,
    agent: null,
    message: null,
    progress: null,
    testbed: "ci-linux-2c",
    version: null,
    cancel_requested: false,
    url: `/runs/${id}`,
    ...overrides,
  };
}
