// Seeding through the API: each spec uploads its own systems and runs as result documents.
import { randomBytes } from "node:crypto";
import type { components } from "../../src/api/schema";

type S = components["schemas"];
export type Doc = S["DocumentIn"];
export type Ingest = S["IngestResponse"];
export type Direction = S["MetricIn"]["direction"];

export interface SeriesSpec {
  benchmark: string;
  parameters?: Record<string, string | number | boolean>;
  metric: string;
  unit: string;
  direction: Direction;
  /** One value per run, oldest first; each becomes five samples within ±0.2 % of it. */
  values: number[];
}

/** A system slug no other spec (or earlier run of this spec) uses. */
export const uniqueSlug = (feature: string) => `e2e-${feature}-${randomBytes(4).toString("hex")}`;

const HOUR = 3_600_000;
const samplesAround = (v: number) =>
  [-0.002, -0.001, 0, 0.001, 0.002].map((d) => Number((v * (1 + d)).toFixed(6)));

/** `runs` values steady at `base` (±0.3 % wobble), the last one `changePct` worse or better. */
export function history(runs: number, base: number, lastChangePct = 0): number[] {
  return Array.from({ length: runs }, (_, i) =>
    i === runs - 1 ? base * (1 + lastChangePct / 100) : base * (1 + 0.003 * Math.sin(i * 1.7)),
  );
}

/**
 * A CI history with one lasting step: `stable` runs at `base` with a small jitter (±`jitterPct` %,
 * deterministic), then `after` runs `stepPct` % above it with the same jitter.
 */
export function stepHistory(stable: number, base: number, stepPct: number, after: number, jitterPct = 0.4) {
  const jitter = (i: number) => 1 + (jitterPct / 100) * Math.sin(i * 2.3);
  return Array.from({ length: stable + after }, (_, i) =>
    Number((base * jitter(i) * (i < stable ? 1 : 1 + stepPct / 100)).toFixed(4)),
  );
}

export class Bench {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  /** POST /api/v1/results; throws with the problem body on anything but 2xx. */
  async upload(doc: Doc): Promise<Ingest> {
    const r = await fetch(`${this.baseUrl}/api/v1/results`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.token}` },
      body: JSON.stringify(doc),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`upload failed (${r.status}): ${text}`);
    return JSON.parse(text) as Ingest;
  }

  /** Register a runner manifest (name, language, headline, metrics) as an agent would. */
  async registerManifest(
    system: string,
    manifest: Omit<S["Manifest"], "system" | "profiles">,
  ): Promise<void> {
    const body = { system, profiles: { quick: { description: "e2e", scenarios: [] } }, ...manifest };
    const r = await fetch(`${this.baseUrl}/api/v1/systems/${system}/manifest`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.token}` },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`manifest of ${system} refused (${r.status}): ${await r.text()}`);
  }

  /** GET a JSON resource of the API. */
  async get<T>(path: string): Promise<T> {
    const r = await fetch(`${this.baseUrl}${path}`);
    if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  }

  /**
   * Upload one run per value index of `series` (all series share the runs), an hour apart, ending
   * now (or `on.hoursAgo` hours ago), on the e2e testbed and quick profile unless `on` names others;
   * `on.commits[i]`, when given, is run i's commit (else a random one).
   */
  async seedRuns(
    system: string,
    series: SeriesSpec[],
    branch = "main",
    on: { testbed?: string; profile?: string; hoursAgo?: number; commits?: string[] } = {},
  ): Promise<Ingest[]> {
    const runs = Math.max(...series.map((s) => s.values.length));
    const start = Date.now() - (runs + (on.hoursAgo ?? 0)) * HOUR;
    const out: Ingest[] = [];
    for (let i = 0; i < runs; i++) {
      const at = new Date(start + i * HOUR).toISOString();
      const run = {
        external_id: `${system}-${branch}-${on.testbed ?? ""}${on.profile ?? ""}${i}`,
        commit: on.commits?.[i] ?? randomBytes(5).toString("hex"),
        branch,
        ...(on.testbed ? { testbed: on.testbed } : {}),
        ...(on.profile ? { profile: on.profile } : {}),
        trigger: "ci" as const,
        started_at: at,
        finished_at: at,
      };
      out.push(await this.upload(resultDocument(system, series, i, run)));
    }
    return out;
  }

  /**
   * Complete a queued run (POST /api/v1/runs, or a re-run the API queued) with one value per
   * series, as the system's runner agent would: `run.id` names it, so the API treats it as
   * runner-executed.
   */
  async completeRun(system: string, runId: number, commit: string, series: SeriesSpec[]): Promise<Ingest> {
    const at = new Date().toISOString();
    const run = {
      id: runId,
      commit,
      branch: "main",
      trigger: "manual" as const,
      started_at: at,
      finished_at: at,
    };
    return this.upload(resultDocument(system, series, 0, run));
  }
}

/** A `benchdash/v1` document with the `index`-th value of each series (five samples each). */
function resultDocument(system: string, series: SeriesSpec[], index: number, run: Partial<Doc["run"]>): Doc {
  const byBenchmark = new Map<string, Doc["results"][number]>();
  for (const s of series) {
    const v = s.values[index];
    if (v === undefined) continue;
    const key = `${s.benchmark} ${JSON.stringify(s.parameters ?? {})}`;
    const result = byBenchmark.get(key) ?? {
      benchmark: s.benchmark,
      parameters: s.parameters ?? {},
      metrics: [],
    };
    result.metrics.push({ name: s.metric, unit: s.unit, direction: s.direction, samples: samplesAround(v) });
    byBenchmark.set(key, result);
  }
  return {
    schema: "benchdash/v1",
    system,
    run: { branch: "main", trigger: "ci", profile: "quick", testbed: "e2e-testbed", ...run },
    environment: { os: "Linux", cpu: "e2e", cores: 2, memory_mb: 2048 },
    results: [...byBenchmark.values()],
  };
}
