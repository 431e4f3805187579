// Profile answers as the API gives them (GET /runs/{id}/profiles, /profiles/{id}, /profiles/diff),
// and a fetch stand-in that answers by path: the HTTP edge of the component tests.
import { vi } from "vitest";
import type { Schemas } from "@/api/types";

export const GROWN = "relay::crypto::cbc_encrypt";

export function summary(overrides: Partial<Schemas["ProfileSummary"]> = {}): Schemas["ProfileSummary"] {
  return {
    id: 9,
    run_id: 5,
    benchmark: "encryption",
    parameters: { input: 1000 },
    benchmark_id: 3,
    kind: "instructions",
    unit: "instructions",
    metric: "instructions",
    total: 118_000,
    stacks_count: 3,
    ...overrides,
  };
}

export const detail = (): Schemas["ProfileDetail"] => ({
  ...summary(),
  tree: {
    name: "all",
    value: 118_000,
    self: 0,
    children: [
      {
        name: "main",
        value: 118_000,
        self: 20_000,
        children: [
          { name: GROWN, value: 70_000, self: 70_000, children: [] },
          { name: "relay::frame::parse", value: 28_000, self: 28_000, children: [] },
        ],
      },
    ],
  },
  functions: [
    { name: "main", self: 20_000, inclusive: 118_000 },
    { name: GROWN, self: 70_000, inclusive: 70_000 },
    { name: "relay::frame::parse", self: 28_000, inclusive: 28_000 },
  ],
});

export const diff = (): Schemas["ProfileDiff"] => ({
  base: summary({ id: 8, run_id: 4, total: 100_000 }),
  head: summary(),
  tree: {
    name: "all",
    value: 118_000,
    delta: 18_000,
    base_value: 100_000,
    children: [
      { name: GROWN, value: 70_000, delta: 20_000, base_value: 50_000, children: [] },
      { name: "relay::frame::parse", value: 28_000, delta: -2_000, base_value: 30_000, children: [] },
    ],
  },
  functions: [
    {
      name: "relay::frame::parse",
      self_base: 30_000,
      self_head: 28_000,
      delta_self: -2_000,
      pct_of_base_total: -2,
    },
    { name: GROWN, self_base: 50_000, self_head: 70_000, delta_self: 20_000, pct_of_base_total: 20 },
  ],
  elsewhere_pct: -2,
});

/** Stub fetch: each request's path (and query) is looked up in `routes`; the URLs asked are returned. */
export function answerByPath(routes: Record<string, unknown>): URL[] {
  const asked: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      asked.push(url);
      const body = routes[url.pathname + url.search] ?? routes[url.pathname];
      if (body === undefined)
        return new Response(JSON.stringify({ title: "Not Found" }), {
          status: 404,
          headers: { "content-type": "application/problem+json" },
        });
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  return asked;
}
