/**
 * Colours for code that draws (SVG charts, markers): references to the CSS custom properties of
 * `src/app/tokens.css`, so a chart and the stylesheet never disagree. ESLint forbids colour
 * literals everywhere else in TypeScript.
 */
export const color = {
  surface: "var(--surface)",
  text: "var(--text)",
  textSoft: "var(--text-soft)",
  muted: "var(--muted)",
  border: "var(--border)",
  borderStrong: "var(--border-strong)",
  grid: "var(--grid)",
  accent: "var(--accent)",
  accentSoft: "var(--accent-soft)",
  range: "var(--range)",
  baseline: "var(--baseline)",
  fail: "var(--fail)",
  failZone: "var(--fail-zone)",
  warn: "var(--warn)",
  warnZone: "var(--warn-zone)",
  improved: "var(--improved)",
  noisy: "var(--noisy)",
  unstable: "var(--unstable)",
  ok: "var(--ok)",
} as const;

/** Differential flame graph fills: unchanged, then grew (red) and shrank (blue) by strength 1..4. */
export const flameColor = {
  same: "var(--flame-same)",
  grew: ["var(--flame-grew-1)", "var(--flame-grew-2)", "var(--flame-grew-3)", "var(--flame-grew-4)"],
  shrank: [
    "var(--flame-shrank-1)",
    "var(--flame-shrank-2)",
    "var(--flame-shrank-3)",
    "var(--flame-shrank-4)",
  ],
} as const;

export type ColorToken = (typeof color)[keyof typeof color];
