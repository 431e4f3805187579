import flamegraph, { type FlameFrame, type FlameGraph as Chart } from "d3-flame-graph";
import { select } from "d3-selection";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
import styles from "@/components/charts/FlameGraph.module.css";
import { diffTone, frameLabel, type FlameDatum } from "@/lib/profiles";
import { flameColor } from "@/lib/tokens";

export interface FlameGraphProps {
  /** Fresh data from `toFlameData` / `toDiffFlameData` (the library marks frames while zooming). */
  data: FlameDatum;
  /** The profile's unit ("instructions", "nanoseconds", "samples"), for the frames' tooltips. */
  unit: string;
  /** Colour frames by `delta`: red grew, blue shrank, grey unchanged (see `FlameLegend`). */
  differential?: boolean;
  /** The accessible name of the figure. */
  label: string;
  testId?: string;
}

const MIN_WIDTH = 320;

/** A frame's fill in a differential graph: a design token by its tone and strength. */
export function diffFill(d: FlameDatum): string {
  const { tone, strength } = diffTone(d.delta ?? 0, d.value, d.base ?? d.value);
  return tone === "same" ? flameColor.same : flameColor[tone][strength - 1]!;
}

/**
 * A flame graph drawn by d3-flame-graph into an SVG: root at the bottom, each frame as wide as its
 * inclusive cost, its callees above it; a click zooms into a frame. Redrawn when the data changes
 * or the container is resized, and torn down on unmount.
 */
export function FlameGraph({ data, unit, differential = false, label, testId }: FlameGraphProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<Chart<FlameDatum> | null>(null);
  const [zoomed, setZoomed] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let width = Math.max(el.clientWidth, MIN_WIDTH);
    const chart = flamegraph<FlameDatum>()
      .width(width)
      .cellHeight(18)
      .minFrameSize(1)
      .transitionDuration(150)
      .sort(true)
      .selfValue(false)
      .setLabelHandler((f: FlameFrame<FlameDatum>) => frameLabel(f.data, data.value, unit))
      .onClick((f) => setZoomed(f.depth > 0));
    if (differential) chart.setColorMapper((f) => diffFill(f.data));
    select(el).datum(data).call(chart);
    chartRef.current = chart;
    setZoomed(false);
    const observer =
      typeof ResizeObserver === "undefined"
        ? null
        : new ResizeObserver(() => {
            const next = Math.max(el.clientWidth, MIN_WIDTH);
            if (Math.abs(next - width) < 2) return;
            width = next;
            chart.width(width).update();
          });
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
  }, [data, unit, differential]);
  return (
    <div className={styles.wrap}>
      <div className={styles.bar}>
        <span className="muted small">
          Width: cost in the {differential ? "head" : "profile"} · click a frame to zoom
        </span>
        {zoomed ? (
          <Button
            size="small"
            variant="secondary"
            onClick={() => {
              chartRef.current?.resetZoom();
              setZoomed(false);
            }}
          >
            Reset zoom
          </Button>
        ) : null}
      </div>
      <div
        ref={ref}
        className={styles.graph}
        role="figure"
        aria-label={label}
        data-testid={testId}
        data-differential={differential ? "true" : undefined}
      />
    </div>
  );
}
