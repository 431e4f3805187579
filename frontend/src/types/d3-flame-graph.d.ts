// d3-flame-graph 5.0.0 ships no types: the part of its API the FlameGraph component uses.
declare module "d3-flame-graph" {
  import type { Selection } from "d3-selection";

  /** A frame as the library hands it to callbacks: a d3-hierarchy node over our datum. */
  export interface FlameFrame<Datum> {
    data: Datum;
    value: number;
    depth: number;
  }

  export interface FlameGraph<Datum> {
    (selection: Selection<HTMLDivElement, Datum, null, undefined>): void;
    width(width: number): this;
    cellHeight(height: number): this;
    minFrameSize(size: number): this;
    transitionDuration(ms: number): this;
    sort(sort: boolean): this;
    selfValue(self: boolean): this;
    title(title: string): this;
    setLabelHandler(label: (frame: FlameFrame<Datum>) => string): this;
    setColorMapper(mapper: (frame: FlameFrame<Datum>, original: string) => string): this;
    onClick(handler: (frame: FlameFrame<Datum>) => void): this;
    resetZoom(): this;
    update(data?: Datum): this;
    destroy(): this;
  }

  export default function flamegraph<Datum>(): FlameGraph<Datum>;
}
