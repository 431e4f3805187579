import { describe, expect, it } from "vitest";
import { cardStatus, worstFirst } from "@/features/overview/status";

const card = (name: string, fail: number, warn: number, alerts: number, ran = true) => ({
  name,
  latest_run: ran ? ({ id: 1 } as never) : null,
  latest_counts: { fail, warn },
  open_alerts: alerts,
});

describe("cardStatus", () => {
  it("takes open alerts and the latest verdicts together", () => {
    expect(cardStatus(card("a", 0, 0, 1))).toBe("regressed"); // an open alert, a calm latest run
    expect(cardStatus(card("a", 2, 0, 0))).toBe("regressed");
    expect(cardStatus(card("a", 0, 3, 0))).toBe("warn");
    expect(cardStatus(card("a", 0, 0, 0))).toBe("ok");
    expect(cardStatus(card("a", 0, 0, 0, false))).toBe("no_runs");
  });

  it("sorts the cards worst first, then by name", () => {
    const cards = [
      card("z-ok", 0, 0, 0),
      card("b-warn", 0, 1, 0),
      card("c-alert", 0, 0, 2),
      card("a-new", 0, 0, 0, false),
    ];
    expect(worstFirst(cards).map((c) => c.name)).toEqual(["c-alert", "b-warn", "z-ok", "a-new"]);
  });
});
