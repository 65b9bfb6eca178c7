import type { Logger } from '../logger';

/**
 * Calls `onOrphaned` once if this process's parent goes away (it is re-parented). npm does not
 * pass SIGTERM on through its shell, and a SIGKILLed supervisor sends nothing: without this,
 * `kill <npm pid>` would leave the whole stack running.
 */
export function watchParent(onOrphaned: () => void, expectedParent = process.ppid): void {
  const timer = setInterval(() => {
    if (process.ppid !== expectedParent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, 500);
  timer.unref();
}

/** The supervisor's pid when `npm start` started this process (it passes WEBHOOK_SUPERVISOR_PID). */
export function supervisorPid(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const pid = Number(env.WEBHOOK_SUPERVISOR_PID);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Waits for SIGINT/SIGTERM (or, when supervised, the supervisor's death), runs `cleanup` once,
 * then exits; a second signal exits at once.
 */
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
    const supervisor = supervisorPid();
    if (supervisor) watchParent(() => onSignal('SIGTERM'), supervisor);
  });
}

/** A rejection handler that logs the error's message as fatal and exits 1 (start-up failures). */
export function exitWith(logger: Logger): (err: unknown) => never {
  return (err) => {
    logger.fatal((err as Error).message);
    process.exit(1);
  };
}

/** Resolves on SIGINT/SIGTERM or, when supervised, the supervisor's death: the worker's stop signal. */
export function stopRequested(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    const supervisor = supervisorPid();
    if (supervisor) watchParent(resolve, supervisor);
  });
}
