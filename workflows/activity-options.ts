import type { LocalActivityOptions } from '@temporalio/workflow';

/**
 * The POST and the attempt log run as local activities, inside the workflow task: no task-queue
 * round trip through Temporal per attempt. Both are short (the POST is bounded by
 * DELIVERY_TIMEOUT) and safe to re-run; HTTP outcomes come back as values, so these retries
 * cover only infrastructure failures (the database) and keep going until they are over.
 */
export const localActivityOptions: LocalActivityOptions = {
  startToCloseTimeout: '2 minutes',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};
