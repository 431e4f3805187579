import { lazyModule } from "@/hooks/useLazyModule";

/** The flame graph and d3-flame-graph in their own chunk, loaded by the first page that draws one. */
export const flameGraphModule = lazyModule(() => import("@/components/charts/FlameGraph"));
