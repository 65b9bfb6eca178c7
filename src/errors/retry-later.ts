/** Whole seconds to wait for `ms`, rounded up and at least 1 (as `Retry-After` says it). */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * The service could not do the request now, through no fault of the client, and wrote nothing:
 * the same request can succeed after `retryAfterSeconds`. A 503 with `Retry-After` (mapped in
 * src/http/problem.ts); `title` names the problem (its `type` derives from it, so keep it stable).
 */
export class RetryLater extends Error {
  constructor(
    readonly title: string,
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
    this.name = 'RetryLater';
  }
}
