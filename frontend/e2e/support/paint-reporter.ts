// Prints the chart paint figures the system spec collects (from the page's performance.measure
// entries) against the 500 ms budget and against a reference chart measured in the same run.
// A figure, not a test: a busy machine must not fail the build, what keeps the chart fast
// (server-side downsampling, a bounded number of drawn points) is asserted by the spec itself.
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

export const PAINT_ATTACHMENT = "paint-timings";
export const PAINT_BUDGET_MS = 500;
/** The system page of hundreds of series (e2e/specs/system-perf.spec.ts). */
export const PAGE_ATTACHMENT = "page-timings";
export const PAGE_INTERACTIVE_BUDGET_MS = 1000;

export interface PageSample {
  /** Navigation start → the first regressed chart's paint (its performance.measure). */
  regressedMs: number;
  /** Navigation start → the page settled: its series in and every chart it draws without scrolling painted. */
  interactiveMs: number;
  charts: number;
  requests: number;
}

export interface PageFigures {
  series: number;
  batch: PageSample[];
  /** The old page (?charts=single: one request and one chart per series, all at once), same run. */
  single: PageSample[];
}

export interface PaintSample {
  /** Navigation start → the frame after the chart's line is in the DOM (performance.measure). */
  paintMs: number;
  /** How long the series request took, of that. */
  seriesMs: number;
}

export interface PaintFigures {
  points: number;
  shown: number;
  cold: PaintSample;
  warm: PaintSample[];
  reference: { points: number; cold: PaintSample; warm: PaintSample[] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join(" / ");

export default class PaintReporter implements Reporter {
  private figures: PaintFigures[] = [];
  private pages: PageFigures[] = [];

  onTestEnd(_test: TestCase, result: TestResult): void {
    for (const a of result.attachments) {
      if (a.name === PAINT_ATTACHMENT && a.body)
        this.figures.push(JSON.parse(a.body.toString()) as PaintFigures);
      if (a.name === PAGE_ATTACHMENT && a.body) this.pages.push(JSON.parse(a.body.toString()) as PageFigures);
    }
  }

  onEnd(): void {
    for (const p of this.pages) console.log(pageLines(p).join("\n"));
    for (const f of this.figures) {
      const big = median(f.warm.map((w) => w.paintMs));
      const ref = median(f.reference.warm.map((w) => w.paintMs));
      const lines = [
        `paint: ${f.points.toLocaleString("en-US")}-point chart (${f.shown} drawn, downsampled on the server): ` +
          `first paint ${Math.round(f.cold.paintMs)} ms on first load; on ${f.warm.length} reloads ${ms(f.warm.map((w) => w.paintMs))} ms, ` +
          `median ${Math.round(big)} ms (series request ${ms(f.warm.map((w) => w.seriesMs))} ms)`,
        `paint: reference ${f.reference.points}-point chart in the same run: median ${Math.round(ref)} ms ` +
          `(${ms(f.reference.warm.map((w) => w.paintMs))} ms); ratio ${(big / ref).toFixed(2)}×`,
        `paint: budget ${PAINT_BUDGET_MS} ms: ${big <= PAINT_BUDGET_MS ? "met" : "NOT met"} (median ${Math.round(big)} ms)`,
      ];
      console.log(lines.join("\n"));
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}

function pageLines(p: PageFigures): string[] {
  const row = (name: string, xs: PageSample[]) => {
    const first = median(xs.map((x) => x.regressedMs));
    const ready = median(xs.map((x) => x.interactiveMs));
    return {
      first,
      ready,
      line:
        `page: ${name}: first regressed chart ${ms(xs.map((x) => x.regressedMs))} ms, median ${Math.round(first)} ms; ` +
        `interactive ${ms(xs.map((x) => x.interactiveMs))} ms, median ${Math.round(ready)} ms ` +
        `(${xs[0]?.charts ?? 0} charts drawn, ${xs[0]?.requests ?? 0} series requests)`,
    };
  };
  const batch = row(`${p.series} series, batch page`, p.batch);
  const lines = [batch.line];
  if (p.single.length) {
    const single = row("same page, old per-chart path (?charts=single)", p.single);
    lines.push(
      single.line,
      `page: old / batch: first regressed chart ${(single.first / batch.first).toFixed(1)}×, interactive ${(single.ready / batch.ready).toFixed(1)}×`,
    );
  }
  lines.push(
    `page: budgets ${PAINT_BUDGET_MS} ms first regressed chart: ${batch.first <= PAINT_BUDGET_MS ? "met" : "NOT met"}; ` +
      `${PAGE_INTERACTIVE_BUDGET_MS} ms interactive: ${batch.ready <= PAGE_INTERACTIVE_BUDGET_MS ? "met" : "NOT met"}`,
  );
  return lines;
}
