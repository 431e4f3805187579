/** One invalid field of a 422 problem: where it is (`["body", "name"]`) and what is wrong. */
export interface FieldProblem {
  loc: (string | number)[];
  msg: string;
}

/** An error from the API, carrying the RFC 7807 problem body when there is one. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: readonly FieldProblem[];

  constructor(status: number, title: string, detail?: string, errors: readonly FieldProblem[] = []) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.errors = errors;
  }

  /** True when the request never reached a working API (network error or gateway failure). */
  get unreachable(): boolean {
    return this.status === 0 || this.status === 502 || this.status === 503 || this.status === 504;
  }
}
