import { LEVEL_ORDER, LEVELS, toLevel } from "@/lib/verdict";

/** A run's verdicts by level, the worst first ("2 fail · 1 warn · 40 ok"); "—" when it has none. */
export function VerdictCounts({ counts }: { counts: Readonly<Record<string, number>> | undefined }) {
  const present = LEVEL_ORDER.filter((l) => (counts?.[l] ?? 0) > 0);
  if (!present.length) return <span className="muted">—</span>;
  return (
    <span data-testid="run-counts">
      {present.map((l, i) => (
        <span key={l} data-level={l} style={{ color: l === "ok" ? undefined : LEVELS[toLevel(l)].color }}>
          {i > 0 ? " · " : ""}
          {counts?.[l]} {LEVELS[l].label.toLowerCase()}
        </span>
      ))}
    </span>
  );
}
