/** The events a subscription may hear, with the words the forms show. */
export const EVENTS = [
  ["alert.opened", "A confirmed regression"],
  ["alert.resolved", "Its recovery"],
  ["alert.bisected", "Its first bad commit (bisected)"],
  ["alert.regraded", "Its grade changing (warn ↔ fail)"],
  ["run.failed", "A failed run"],
] as const;
