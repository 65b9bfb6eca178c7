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
      const r = await dispatcher.relayOnce({ graceMs: intervalMs, batch: 200 });
      if (r.flushed || r.dispatched) logger.info(r, 'relay dispatched events left behind');
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
