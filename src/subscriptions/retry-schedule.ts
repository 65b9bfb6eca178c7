import { type FieldIssue, fieldName } from '../errors/field-issue';
import { DomainError } from '../errors/domain-error';
import { type RetryOverride, scheduleSpanMs } from '../../workflows/delivery-model';

/**
 * A subscription's own retry schedule (`retry`): its bounds, its write-time check, its stored
 * form and what `GET` shows. The workflow settles each attempt by the schedule the attempt
 * activity read with the subscription (workflows/delivery-model.ts `effectivePolicy`).
 */

/** Shortest wait between two attempts. */
export const MIN_RETRY_WAIT_MS = 1000;
/** Longest wait between two attempts. */
export const MAX_RETRY_WAIT_MS = 6 * 3_600_000;
/** Most waits a schedule lists (the last repeats). */
export const MAX_RETRY_STEPS = 10;
/** Most attempts, the first included; DELIVERY_MAX_ATTEMPTS's own upper bound. */
export const MAX_RETRY_ATTEMPTS = 10;
/**
 * Longest a subscription's retries may last (the sum of the waits its attempts use, before
 * jitter): retention keeps events at least this long past their attempts (delivery-span.ts).
 */
export const MAX_RETRY_SPAN_MS = 12 * 3_600_000;

/** A subscription's `retry` as stored: waits in ms. */
export interface StoredRetry {
  schedule_ms: number[];
  max_attempts: number;
}

/** The API's `retry` on create and PATCH. */
export interface RetryInput {
  schedule: string[];
  max_attempts: number;
}

/** What `GET` shows: the schedule deliveries use, and whether it is the service's or the subscription's. */
export interface EffectiveRetry {
  schedule: string[];
  max_attempts: number;
  source: 'service' | 'subscription';
}

const units = { s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `30s`, `5m`, `2h` in ms; undefined unless a whole positive number of one of these units. */
export function parseRetryWait(text: string): number | undefined {
  const m = /^([1-9]\d{0,5})(s|m|h)$/.exec(text);
  return m ? Number(m[1]) * units[m[2] as keyof typeof units] : undefined;
}

/** A wait in the largest unit that divides it (`7200000` → `2h`); below a second, whole seconds rounded up. */
export function formatRetryWait(ms: number): string {
  if (ms % units.h === 0) return `${ms / units.h}h`;
  if (ms % units.m === 0) return `${ms / units.m}m`;
  return `${Math.max(1, Math.ceil(ms / units.s))}s`;
}

/** Every bound `retry` breaks, each naming its field under `retry`; empty when it is within them. */
export function retryErrors(input: RetryInput): FieldIssue[] {
  const errors: FieldIssue[] = [];
  if (input.schedule.length < 1 || input.schedule.length > MAX_RETRY_STEPS) errors.push({ field: ['retry', 'schedule'], message: `must list 1 to ${MAX_RETRY_STEPS} waits` });
  const waits = input.schedule.map((text, i) => {
    const ms = parseRetryWait(text);
    if (ms === undefined) errors.push({ field: ['retry', 'schedule', i], message: `${JSON.stringify(text)} is not a wait like 30s, 5m or 2h` });
    else if (ms < MIN_RETRY_WAIT_MS || ms > MAX_RETRY_WAIT_MS) errors.push({ field: ['retry', 'schedule', i], message: `${text} is outside 1s to ${formatRetryWait(MAX_RETRY_WAIT_MS)}` });
    return ms ?? 0;
  });
  if (!Number.isInteger(input.max_attempts) || input.max_attempts < 1 || input.max_attempts > MAX_RETRY_ATTEMPTS) {
    errors.push({ field: ['retry', 'max_attempts'], message: `must be a whole number from 1 to ${MAX_RETRY_ATTEMPTS}` });
  }
  if (errors.length === 0) {
    const span = scheduleSpanMs(waits, input.max_attempts);
    if (span > MAX_RETRY_SPAN_MS) {
      errors.push({ field: ['retry'], message: `retries would last ${formatRetryWait(span)}, more than ${formatRetryWait(MAX_RETRY_SPAN_MS)} (the waits its ${input.max_attempts} attempts use, the last repeating)` });
    }
  }
  return errors;
}

/** The stored form of `retry`, or a 422 naming each field out of bounds (nothing is written). */
export function checkedRetry(input: RetryInput): StoredRetry {
  const errors = retryErrors(input);
  if (errors.length) throw DomainError.unprocessable(`retry: ${errors.map((e) => `${fieldName(e.field)} ${e.message}`).join('; ')}`, errors);
  return { schedule_ms: input.schedule.map((t) => parseRetryWait(t)!), max_attempts: input.max_attempts };
}

/** What the attempt activity reports to the workflow for a subscription with its own `retry`. */
export function retryOverride(stored: StoredRetry): RetryOverride {
  return { scheduleMs: stored.schedule_ms, maxAttempts: stored.max_attempts };
}

/** The schedule a subscription's deliveries use: its own, or the service's `defaults` when it sets none. */
export function effectiveRetry(stored: StoredRetry | undefined, defaults: RetryOverride): EffectiveRetry {
  return stored
    ? { schedule: stored.schedule_ms.map(formatRetryWait), max_attempts: stored.max_attempts, source: 'subscription' }
    : { schedule: defaults.scheduleMs.map(formatRetryWait), max_attempts: defaults.maxAttempts, source: 'service' };
}
