// The one seed that does not go through the API: a long series. Uploading 10,000 documents one by
// one would take minutes, so the spec uploads the first run through the API and this copies that
// run (and its measurement and verdict) `count - 1` times into the past, in one SQL statement. Rows are copied
// whole through jsonb, so new columns of these tables need no change here; each copy's verdict is
// "ok", and so is the measurement's copy of its level.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { PYTHON } from "./server";

const run = promisify(execFile);

const SQL = `
WITH seed_run AS (SELECT * FROM run WHERE id = %(run)s),
new_runs AS (
  INSERT INTO run
  SELECT (jsonb_populate_record(NULL::run, to_jsonb(s) || jsonb_build_object(
      'id', nextval(pg_get_serial_sequence('run', 'id')),
      'external_id', s.external_id || '-' || g,
      'commit', substr(md5(g::text), 1, 10),
      'created_at', now(),
      'started_at', s.started_at - g * interval '10 minutes',
      'finished_at', s.started_at - g * interval '10 minutes'))).*
  FROM seed_run s, generate_series(1, %(count)s - 1) g
  RETURNING id, started_at
),
new_meas AS (
  INSERT INTO measurement
  SELECT (jsonb_populate_record(NULL::measurement, to_jsonb(m) || jsonb_build_object(
      'id', nextval(pg_get_serial_sequence('measurement', 'id')),
      'run_id', r.id, 'started_at', r.started_at,
      'value', v, 'samples', jsonb_build_array(v), 'n', 1, 'mean', v, 'median', v,
      'min_value', v, 'max_value', v, 'stddev', NULL, 'cv', NULL,
      'level', 'ok', 'stage', NULL, 'change_pct', 0, 'p_value', NULL))).*
  FROM measurement m, new_runs r,
       LATERAL (SELECT m.value * (1 + 0.04 * sin(extract(epoch FROM r.started_at) / 86400.0)
                                  + (random() - 0.5) * 0.03) AS v) x
  WHERE m.run_id = %(run)s
  RETURNING id, value, started_at
)
INSERT INTO verdict
SELECT (jsonb_populate_record(NULL::verdict, to_jsonb(d) || jsonb_build_object(
    'id', nextval(pg_get_serial_sequence('verdict', 'id')),
    'measurement_id', n.id, 'started_at', n.started_at, 'level', 'ok', 'change_pct', 0, 'p_value', NULL))).*
FROM verdict d, new_meas n
WHERE d.measurement_id = (SELECT id FROM measurement WHERE run_id = %(run)s)
`;

const SCRIPT = `
import os, sys, psycopg
url = os.environ["DATABASE_URL"].replace("postgresql+psycopg://", "postgresql://")
run_id, count = int(sys.argv[1]), int(sys.argv[2])
with psycopg.connect(url) as conn:
    conn.execute(os.environ["BULK_SQL"], {"run": run_id, "count": count})
    conn.execute("ANALYZE run; ANALYZE measurement; ANALYZE verdict")
    total = conn.execute(
        "SELECT count(*) FROM measurement WHERE (benchmark_id, metric_id) = "
        "(SELECT benchmark_id, metric_id FROM measurement WHERE run_id = %s)",
        (run_id,),
    ).fetchone()[0]
print(total)
`;

/** Copy run `runId` (one measurement) until its series holds `count` points; returns the count. */
export async function extendSeries(databaseUrl: string, runId: number, count: number): Promise<number> {
  const { stdout } = await run(PYTHON, ["-c", SCRIPT, String(runId), String(count)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, BULK_SQL: SQL },
  });
  return Number(stdout.trim());
}
