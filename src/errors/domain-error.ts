import type { FieldIssue } from './field-issue';

/**
 * Why the domain refused a request. Each kind is one HTTP status, mapped only in
 * src/http/problem.ts: `invalid` 400, `forbidden` 403, `not_found` 404, `conflict` 409,
 * `unprocessable` 422.
 */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict' | 'unprocessable';

/**
 * A refusal by the domain, with what a client needs to fix it: the kind, a short title (the
 * problem `type` derives from it, so keep it stable), the detail, and the offending fields of its input.
 * One class with variants (as svix's `HttpError`), built with the static constructors.
 */
export class DomainError extends Error {
  private constructor(
    readonly kind: DomainErrorKind,
    readonly title: string,
    detail: string,
    readonly errors?: FieldIssue[],
  ) {
    super(detail);
    this.name = 'DomainError';
  }

  /** The request is malformed in a way the contract cannot say (a bad cursor, filter, URL). */
  static invalid(title: string, detail: string, errors?: FieldIssue[]): DomainError {
    return new DomainError('invalid', title, detail, errors);
  }

  /** The caller may not do this. */
  static forbidden(detail: string, errors?: FieldIssue[]): DomainError {
    return new DomainError('forbidden', 'Forbidden', detail, errors);
  }

  /** Absent, or another owner's (which must look the same). */
  static notFound(detail: string): DomainError {
    return new DomainError('not_found', 'Not Found', detail);
  }

  /** The resource's current state does not allow it. */
  static conflict(title: string, detail: string, errors?: FieldIssue[]): DomainError {
    return new DomainError('conflict', title, detail, errors);
  }

  /** Well-formed, but refers to things that do not exist or do not fit together. */
  static unprocessable(detail: string, errors?: FieldIssue[]): DomainError {
    return new DomainError('unprocessable', 'Unprocessable Content', detail, errors);
  }
}
