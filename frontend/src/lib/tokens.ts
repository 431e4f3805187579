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

export type ColorToken = (typeof color)[keyof typeof color];
