import type { PostResult } from '../workflows/delivery-model';

/** A broker that did not answer within the attempt's time: a `timeout` attempt, and its connection is dropped. */
export class Timeout extends Error {}

/** `work`, or a {@link Timeout} with `message` once `ms` pass (the work itself runs on). */
export function bounded<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject: (err: Error) => void) => {
    timer = setTimeout(() => reject(new Timeout(message)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** One line for the attempt log: the broker's reply text when there is one, the errno code with it. */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && !err.message.includes(code)) return `${code} ${err.message}`.trim();
  return err.message.split('\n')[0]!.slice(0, 500);
}

/** How a broker attempt ended, before its times are added. */
export type BrokerEnding = { outcome: 'delivered'; excerpt?: string } | { outcome: 'rejected' | 'network_error' | 'timeout' | 'blocked'; error: string };

/** Why no broker attempt is made while deliveries must leave through an HTTP proxy. */
export const PROXY_REFUSAL = 'deliveries must leave through DELIVERY_PROXY_URL, which carries HTTP only: broker destinations are not reached through it';

/** Starts an attempt's clock: `ended` turns its ending into the attempt's result (a delivered one logged as status 200 with its own excerpt or `excerpt`), `elapsedMs` is the time so far. */
export function attemptClock(excerpt: string): { ended: (r: BrokerEnding) => PostResult; elapsedMs: () => number } {
  const startedAt = Date.now();
  const t0 = performance.now();
  const elapsedMs = () => Math.round(performance.now() - t0);
  return {
    elapsedMs,
    ended: (r) =>
      r.outcome === 'delivered'
        ? { startedAt, durationMs: elapsedMs(), outcome: 'delivered', statusCode: 200, responseExcerpt: r.excerpt ?? excerpt }
        : { startedAt, durationMs: elapsedMs(), outcome: r.outcome, error: r.error },
  };
}
