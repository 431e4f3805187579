import { describe, expect, it } from "vitest";
import { cardStatus, worstFirst } from "@/features/overview/status";

const card = (name: string, fail: number, warn: number, alerts: number, ran = true, ok = 4) => ({
  name,
  latest_run: ran ? ({ id: 1 } as never) : null,
  latest_counts: { fail, warn, ok },
  open_alerts: alerts,
});

describe("cardStatus", () => {
  it("takes open alerts and the latest verdicts together; warn is not fail", () => {
    expect(cardStatus(card("a", 0, 0, 1))).toBe("alerted"); // an open alert, a calm latest run
    expect(cardStatus(card("a", 2, 0, 0))).toBe("regressed");
    expect(cardStatus(card("a", 0, 3, 0))).toBe("worse");
    expect(cardStatus(card("a", 0, 0, 0))).toBe("ok");
    expect(cardStatus(card("a", 0, 0, 0, false))).toBe("no_runs");
  });

  it("grades open alerts by their level when it is known", () => {
    expect(cardStatus(card("a", 0, 0, 1), "fail")).toBe("regressed");
    expect(cardStatus(card("a", 0, 0, 1), "warn")).toBe("worse");
    expect(cardStatus(card("a", 0, 0, 0), "fail")).toBe("ok"); // no alert open: a stale level
  });

  it("never calls a system that is still learning OK", () => {
    expect(cardStatus({ ...card("a", 0, 0, 0, true, 0), latest_counts: { learning: 9 } })).toBe("not_judged");
    const headline = { latest_level: "learning" } as never;
    expect(cardStatus({ ...card("a", 0, 0, 0), headline })).toBe("not_judged");
  });

  it("sorts the cards worst first, then by name", () => {
    const cards = [
      card("z-ok", 0, 0, 0),
      card("b-warn", 0, 1, 0),
      card("c-alert", 0, 0, 2),
      card("d-fail", 1, 0, 0),
      card("a-new", 0, 0, 0, false),
    ];
    expect(worstFirst(cards).map((c) => c.name)).toEqual(["d-fail", "b-warn", "c-alert", "z-ok", "a-new"]);
  });
});
