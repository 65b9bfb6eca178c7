import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { type ActivityDeps, createActivities } from '../../activities';

/** Path of the workflow bundle entry, bundled by the worker at start. */
export const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export interface CreateWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** Pre-built bundle (tests reuse one across workers). */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

/** Creates the delivery worker: our workflows plus activities bound to real dependencies. */
export function createWorker(opts: CreateWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    identity: opts.deps.workerIdentity,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath }),
    activities: createActivities(opts.deps),
  });
}

export { NativeConnection };
