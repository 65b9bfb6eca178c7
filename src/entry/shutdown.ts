import type { Logger } from '../logger';

/** Waits for SIGINT/SIGTERM, runs `cleanup` once, then exits; a second signal exits at once. */
export function runUntilSignal(logger: Logger, cleanup: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, 'shutting down');
      cleanup().then(
        () => {
          resolve();
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
