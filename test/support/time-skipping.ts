import { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadStackConfig } from '../../stack/config/config';
import { resolveTimeSkippingServer } from '../../tools/lib/test-server';

/**
 * A private Temporal time-skipping test server (Java, from Maven Central) on a free port, with
 * clients and `nativeConnection` for workers. Time skips while a workflow result is awaited.
 * Call `teardown()` when done; do not share one across concurrent tests (time is global to it).
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const cacheDir = loadStackConfig({ BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR }).binaryCacheDir;
  const path = await resolveTimeSkippingServer({ cacheDir });
  return TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
}
