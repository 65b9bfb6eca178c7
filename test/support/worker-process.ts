import type { LineSink, ManagedProcess } from '../../stack/runtime/processes';
import { serviceProcess } from '../../stack/runtime/stack';
import type { TestApi } from './api';

/**
 * The real worker entry point (`npm run worker`) as a separate process with `env` on top of
 * this one's; `args` and `cwd`: how node runs it, by default the TypeScript source.
 */
export function workerEntryProcess(env: Record<string, string>, opts: { onLine?: LineSink; args?: string[]; cwd?: string } = {}): ManagedProcess {
  return serviceProcess('worker', { env: { ...process.env, ...env }, ...opts });
}

/**
 * The real worker entry point on the test API's database and task queue, so a test can SIGKILL
 * it like a crash.
 */
export function startWorkerProcess(api: TestApi, env: Record<string, string> = {}): ManagedProcess {
  return workerEntryProcess({
    MONGODB_URI: api.config.mongo.connectUri,
    MONGODB_DB: api.config.mongo.dbName,
    TEMPORAL_ADDRESS: api.config.temporal.connectAddress,
    TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue,
    CALLBACK_ALLOW_PRIVATE: 'true',
    // Events link to the test API, which listens on a free port rather than PORT.
    PUBLIC_URL: api.config.api.portal.publicUrl ?? api.baseUrl,
    DELIVERY_TIMEOUT: '2s',
    RELAY_INTERVAL: '500ms',
    LOG_LEVEL: 'warn',
    // Several workers run at once in some tests: no fixed metrics port unless a test asks for one.
    WORKER_METRICS_PORT: '0',
    ...env,
  });
}
