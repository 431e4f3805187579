/**
 * A 422 problem's field errors, each beside its field in words a person can act on (GOV.UK's
 * pattern: what is wrong and how to fix it), instead of pydantic's text under "Something went
 * wrong". A form names its fields and, for the rules it knows (a pattern), its own words.
 */
import { ApiError } from "@/api/errors";

export type FieldErrors = Partial<Record<string, string>>;

/** The form's words for a field's rule; `item` is the offending list item, when the field is a list. */
export type Wording = Partial<Record<string, (item: string | undefined) => string>>;

const AT_MOST = /at most (\d+) (character|item)s?/i;
const AT_LEAST = /at least (\d+) (character|item)s?/i;

function words(msg: string): string {
  const most = AT_MOST.exec(msg);
  if (most) return `Use at most ${most[1]} ${most[2]}s.`;
  const least = AT_LEAST.exec(msg);
  if (least) return `Use at least ${least[1]} ${least[2]}s.`;
  return msg
    .replace(/^Value error, /, "")
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/\.?$/, ".");
}

/** The body field an error is about: its `loc` is `[field, index…]` (the API drops "body"). */
const fieldOf = (loc: readonly (string | number)[]) => {
  const at = loc[0] === "body" ? loc.slice(1) : loc;
  return { field: typeof at[0] === "string" ? at[0] : undefined, index: at[1] };
};

/**
 * The field errors of `error` for `fields` (a body field's `loc` is `[field, …]`); a
 * pattern rule reads as the form's `wording`. `values` gives list items for the words.
 */
export function fieldErrors(
  error: unknown,
  fields: readonly string[],
  wording: Wording = {},
  values: Partial<Record<string, readonly string[]>> = {},
): FieldErrors {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const out: FieldErrors = {};
  for (const e of error.errors) {
    const { field, index } = fieldOf(e.loc);
    if (field === undefined || !fields.includes(field) || out[field]) continue;
    const item = typeof index === "number" ? values[field]?.[index] : undefined;
    const own = wording[field];
    out[field] = /pattern/i.test(e.msg) && own ? own(item) : words(e.msg);
  }
  return out;
}

/** True when every field error of `error` has a field of `shown` (no general message needed). */
export function allShown(error: unknown, shown: FieldErrors): boolean {
  return error instanceof ApiError && error.status === 422 && error.errors.length > 0
    ? error.errors.every((e) => shown[fieldOf(e.loc).field ?? ""] !== undefined)
    : false;
}
