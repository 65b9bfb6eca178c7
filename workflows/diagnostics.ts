import { proxyActivities } from '@temporalio/workflow';
import type { Activities, DiagnosticsResult } from '../activities';

const { checkDatabase } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/**
 * Round trip through Temporal, a worker and MongoDB: shows the whole delivery path
 * except the HTTP POST is wired, without sending anything to a subscriber.
 */
export async function diagnosticsWorkflow(): Promise<DiagnosticsResult> {
  return await checkDatabase();
}
