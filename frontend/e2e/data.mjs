// Test data the demo lacks: a hostile benchmark name, and a 10,000-point series.
import { py } from "./server.mjs";

export const XSS_NAME = "<img src=x onerror=alert(1)>";

async function upload(baseUrl, token, doc) {
  const r = await fetch(`${baseUrl}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(doc),
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`upload failed (${r.status}): ${JSON.stringify(body)}`);
  return body;
}

const document = (system, externalId, benchmark, metric, unit, value, startedAt) => ({
  schema: "benchdash/v1",
  system,
  run: {
    external_id: externalId,
    commit: "e2e0000001",
    branch: "main",
    trigger: "ci",
    profile: "quick",
    started_at: startedAt,
    finished_at: startedAt,
    testbed: "e2e-testbed",
  },
  environment: { os: "Linux", cpu: "e2e", cores: 2, memory_mb: 1024 },
  results: [
    { benchmark, parameters: {}, metrics: [{ name: metric, unit, direction: "lower_is_better", value }] },
  ],
});

/** Upload a run of uvhttp whose benchmark is named like an HTML injection; returns the run id. */
export async function uploadHostileBenchmark(baseUrl, token) {
  const body = await upload(
    baseUrl,
    token,
    document("uvhttp", "e2e-xss-1", XSS_NAME, "latency_avg_ms", "ms", 1.5, new Date().toISOString()),
  );
  return body.run.id;
}

/** Create system perf10k whose series has 10,000 points: one upload, then one SQL statement for the rest. */
export async function seedTenThousand(baseUrl, token, databaseUrl) {
  const t0 = new Date(Date.now() - 10_000 * 600_000).toISOString();
  const seed = await upload(
    baseUrl,
    token,
    document("perf10k", "perf-0", "series_10k", "time", "ns", 1000, t0),
  );
  const code = `
import os, sqlalchemy as sa
e = sa.create_engine(os.environ["DATABASE_URL"])
with e.begin() as c:
    seed = ${seed.run.id}
    row = c.execute(sa.text("select m.benchmark_id, m.metric_id from measurement m where m.run_id = :r"), {"r": seed}).one()
    c.execute(sa.text("""
      with new_runs as (
        insert into run (system_id, branch_id, testbed_id, external_id, commit, trigger, profile, status, accepted,
                         created_at, started_at, finished_at)
        select r.system_id, r.branch_id, r.testbed_id, 'perf-' || g, substr(md5(g::text), 1, 10), 'ci', 'quick',
               'completed', true, now(), r.started_at + g * interval '10 minutes', r.started_at + g * interval '10 minutes'
        from run r, generate_series(1, 9999) g where r.id = :seed
        returning id, started_at
      ), new_meas as (
        insert into measurement (run_id, benchmark_id, metric_id, value, samples, n, mean, median, stddev,
                                 min_value, max_value, cv, outliers_removed)
        select id, :b, :m, v, array[v], 1, v, v, null, v, v, null, 0
        from (select id, 1000 + 40 * sin(extract(epoch from started_at) / 86400.0) + (random() - 0.5) * 30 as v
              from new_runs) x
        returning id
      )
      insert into verdict (measurement_id, level, baseline_value, baseline_run_ids, baseline_source, change_pct,
                           warn_threshold, fail_threshold, explanation)
      select id, 'ok', 1000, '{}', 'median', 0, 5, 10, 'Within 5 % of the baseline.' from new_meas
    """), {"seed": seed, "b": row.benchmark_id, "m": row.metric_id})
    print(c.execute(sa.text("select count(*) from measurement where benchmark_id = :b"), {"b": row.benchmark_id}).scalar())
# Fresh statistics, as autovacuum would gather after a bulk load, so the planner sees 10,000 rows.
with e.begin() as c:
    c.execute(sa.text("analyze run; analyze measurement; analyze verdict"))
`;
  const count = Number(
    await py(code, { DATABASE_URL: databaseUrl.replace("postgresql://", "postgresql+psycopg://") }),
  );
  if (count !== 10_000) throw new Error(`expected 10,000 points, the database has ${count}`);
  return count;
}
