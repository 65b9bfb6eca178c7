import type { ManagedProcess } from '../../stack/runtime/processes';
import { getFreePort } from '../../stack/runtime/ports';
import { serviceProcess } from '../../stack/runtime/stack';
import type { TestApi } from './api';
import { waitFor } from './wait';

/** The real API entry point (`npm run api`) as a process of its own, on the test API's database. */
export interface ApiProcess {
  baseUrl: string;
  process: ManagedProcess;
}

/** The variables that put an API on the test API's database, Temporal and task queue, listening on `port`. */
export function sharedApiEnv(api: TestApi, port: number): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    MONGODB_URI: api.config.mongo.connectUri,
    MONGODB_DB: api.config.mongo.dbName,
    TEMPORAL_ADDRESS: api.config.temporal.connectAddress,
    TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue,
  };
}

/**
 * Starts `src/entry/api.ts` on a free port against the test API's database and Temporal, and
 * waits until it answers /healthz: several of them stand for an API scaled out.
 */
export async function startApiProcess(api: TestApi, env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await getFreePort();
  const child = serviceProcess('api', {
    name: `api:${port}`,
    env: {
      ...process.env,
      ...sharedApiEnv(api, port),
      CALLBACK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
      METRICS_ENABLED: 'false',
      ...env,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(async () => {
      if (child.hasExited) throw new Error(`api process exited:\n${child.recentOutput()}`);
      return (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.ok === true;
    }, 60_000, 200);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return { baseUrl, process: child };
}
