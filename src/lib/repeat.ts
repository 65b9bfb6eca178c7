/** A background loop that can be stopped, waiting for the pass in progress. */
export interface Repeating {
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` (counted from the end of the previous pass, so passes never
 * overlap) until stopped. `pass` handles its own errors.
 */
export function repeatEvery(intervalMs: number, pass: () => Promise<void>): Repeating {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
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
