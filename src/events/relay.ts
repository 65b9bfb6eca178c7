import type { Logger } from '../logger';
import type { EventDispatcher } from './dispatcher';

/**
 * Runs relay passes every `intervalMs` until stopped: what a crash left in an outbox, or a
 * Temporal outage left pending, gets dispatched. Safe to run in every worker at once.
 */
export function startRelay(dispatcher: EventDispatcher, intervalMs: number, logger: Logger): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      // A note is abandoned only long after any request could still be writing its event.
      const r = await dispatcher.relayOnce({ graceMs: intervalMs, abandonMs: Math.max(60_000, 10 * intervalMs), batch: 200 });
      if (r.flushed || r.dispatched) logger.info(r, 'relay dispatched events left behind');
      if (r.abandoned) logger.info(r, 'relay dropped notes of writes that never happened');
    } catch (err) {
      logger.warn({ err }, 'relay pass failed; retrying next interval');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, intervalMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
