import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config/config';
import { startLocalServers } from '../../src/runtime/local-servers';
import { getFreePort } from '../../src/runtime/ports';

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
  const config = loadConfig({
    DATA_DIR: dataDir,
    MONGO_PORT: String(await getFreePort()),
    POSTGRES_PORT: String(await getFreePort()),
    TEMPORAL_PORT: String(await getFreePort()),
    MONGODB_URI: process.env.TEST_MONGODB_URI,
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
    BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR,
  });
  const started = Date.now();
  const servers = await startLocalServers(config, {
    log: (line) => console.log(line),
    headless: true,
    fastSqlite: true,
  });
  console.log(`test servers up in ${Date.now() - started}ms: ${servers.mongoDescription}; temporal ${servers.temporalAddress}`);
  project.provide('mongoUri', servers.mongoUri);
  project.provide('temporalAddress', servers.temporalAddress);
  project.provide('dataDir', dataDir);
  return async () => {
    await servers.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
