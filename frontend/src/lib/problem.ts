/** API errors in words a person can act on. */
import { ApiError } from "@/api/errors";

/** Say why `doing` ("accept this change") failed: signed out, not allowed, unreachable, or the API's own words. */
export function describeProblem(error: unknown, doing: string): string {
  if (!(error instanceof ApiError)) {
    return `Could not ${doing}: ${error instanceof Error ? error.message : String(error)}.`;
  }
  if (error.unreachable) return `Could not ${doing}: the benchdash API cannot be reached. Nothing was saved.`;
  if (error.status === 401)
    return `Could not ${doing}: you are no longer signed in. Sign in again and retry.`;
  if (error.status === 403)
    return `Could not ${doing}: your account is not allowed to${error.detail ? ` (${error.detail})` : ""}.`;
  const detail = error.detail ?? error.message;
  return `Could not ${doing}: ${detail.replace(/\.$/, "")}.`;
}
