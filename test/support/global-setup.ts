import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadStackConfig } from '../../stack/config/config';
import { getFreePort } from '../../stack/runtime/ports';
import { startStack } from '../../stack/runtime/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
    temporalAddress: string;
    dataDir: string;
  }
}

/**
 * Starts the real servers for the integration run, always on fresh free ports and a temp
 * data directory (never a developer's running instance). TEST_MONGODB_URI and
 * TEST_TEMPORAL_ADDRESS point the run at existing servers instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webhook-service-test-'));
  const config = loadStackConfig({
    DATA_DIR: dataDir,
    MONGO_PORT: String(await getFreePort()),
    POSTGRES_PORT: String(await getFreePort()),
    TEMPORAL_PORT: String(await getFreePort()),
    MONGODB_URI: process.env.TEST_MONGODB_URI,
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
    BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR,
  });
  const started = Date.now();
  // The launcher `npm start` uses, with only its servers: each test starts the API and worker it needs.
  const stack = await startStack({ config, apis: 0, workers: 0, log: (line) => console.log(line), headless: true, fastSqlite: true });
  const { env } = stack.servers;
  console.log(`test servers up in ${Date.now() - started}ms: ${stack.servers.database}; temporal ${stack.servers.temporal}`);
  project.provide('mongoUri', env.MONGODB_URI ?? config.mongo.connectUri);
  project.provide('temporalAddress', env.TEMPORAL_ADDRESS ?? config.temporal.connectAddress);
  project.provide('dataDir', dataDir);
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
