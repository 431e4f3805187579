// The typed HTTP client. Only `features/*/api/` modules may import this file (ESLint enforces it):
// every request the UI makes lives in one of those, next to its queryOptions and hook.
import createClient, { type Middleware } from "openapi-fetch";
import { ApiError, type FieldProblem } from "@/api/errors";
import type { paths } from "@/api/schema";

// Every cookie-authenticated mutation must carry this header: the server refuses it otherwise.
const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== "GET" && request.method !== "HEAD") request.headers.set("x-benchdash-csrf", "1");
    return request;
  },
};

// Absolute same-origin URLs (`new Request("/api/…")` has no base outside a page), and fetch looked
// up at call time rather than captured at start-up, so tests can stub it.
export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? "",
  credentials: "same-origin",
  fetch: (request: Request) => globalThis.fetch(request),
});
api.use(csrf);

type Result<T> = { data?: T; error?: unknown; response: Response };

function toProblem(error: unknown, response: Response): ApiError {
  if (error && typeof error === "object") {
    const e = error as { title?: unknown; detail?: unknown; errors?: unknown };
    const title = typeof e.title === "string" ? e.title : response.statusText || "Request failed";
    const errors = Array.isArray(e.errors) ? (e.errors as FieldProblem[]) : [];
    return new ApiError(response.status, title, typeof e.detail === "string" ? e.detail : undefined, errors);
  }
  return new ApiError(response.status, response.statusText || "Request failed");
}

/** Await an openapi-fetch call and return its data, or throw an ApiError. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new ApiError(0, "The API cannot be reached", e instanceof Error ? e.message : undefined);
  }
  if (result.error !== undefined || !result.response.ok) throw toProblem(result.error, result.response);
  return result.data as T;
}
