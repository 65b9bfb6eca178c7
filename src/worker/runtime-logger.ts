import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';
import type { Logger } from '../logger';

/**
 * Routes the Temporal SDK's logs into our pino logger, so the worker writes one format. The
 * SDK is chatty at INFO (bundler output), so it logs from WARN unless debugging. With
 * `sdkMetricsAddress`, the SDK exports its metrics there in Prometheus format, with
 * Prometheus's naming conventions (`_total`, units in seconds).
 */
export function installWorkerRuntime(logger: Logger, level: string, sdkMetricsAddress?: string): void {
  const sdkLevel: LogLevel = level === 'trace' ? 'TRACE' : level === 'debug' ? 'DEBUG' : 'WARN';
  const sdk = logger.child({ sdk: 'temporal' });
  Runtime.install({
    // The entry point owns shutdown: it stops the relay and rebuilds workers across outages.
    shutdownSignals: [],
    ...(sdkMetricsAddress
      ? {
          telemetryOptions: {
            metrics: { prometheus: { bindAddress: sdkMetricsAddress, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true } },
          },
        }
      : {}),
    logger: new DefaultLogger(sdkLevel, ({ level: l, message, meta }) => {
      const method = l === 'ERROR' ? 'error' : l === 'WARN' ? 'warn' : l === 'INFO' ? 'info' : 'debug';
      sdk[method](meta ?? {}, message);
    }),
  });
}
