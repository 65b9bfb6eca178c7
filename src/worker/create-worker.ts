import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import { Client } from '@temporalio/client';
import { NativeConnection, ResourceBasedController, Worker, type WorkerOptions, type WorkerTuner } from '@temporalio/worker';
import { type ActivityDeps, createActivities } from '../../activities';
import { laneTaskQueues } from '../events/lanes';
import { workflowRuns } from '../temporal/workflow-runs';
import type { Tracing } from '../telemetry/tracing';

/** Path of the workflow bundle entry, bundled by the worker at start. */
export const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/**
 * Modules the reusable V8 context evaluates once per workflow thread instead of once per workflow:
 * the workflow code and what it imports. Sharing them is safe because none keeps per-workflow
 * state at module scope (activity proxies, search attribute keys, constants and functions only).
 */
export const preloadModules = [workflowsPath];

/** File name of the bundle `npm run build` writes at the top of its output (tools/build.ts), traced or not. */
export const workflowBundleFile = (traced: boolean) => (traced ? 'workflow-bundle.traced.js' : 'workflow-bundle.js');

/**
 * The workflow bundle built with the compiled code (`npm run build`), when this module runs
 * compiled: the worker then loads it instead of bundling with webpack at every start. From
 * the TypeScript source (dev, tests) there is none, and the worker bundles `workflowsPath`.
 */
export function prebuiltWorkflowBundle(traced: boolean): { codePath: string } | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined;
  const codePath = fileURLToPath(new URL(`../../${workflowBundleFile(traced)}`, import.meta.url));
  return existsSync(codePath) ? { codePath } : undefined;
}

/** The workflow interceptors that trace workflows; bundle them (`workflowInterceptorModules`) only when tracing. */
export const tracingWorkflowInterceptors = [createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

export interface CreateWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /**
   * Workflow tasks and local activities this worker runs at once (default 200). An event's
   * workflow task stays open while its round of POSTs runs, so a receiver slow to answer holds
   * one slot up to DELIVERY_TIMEOUT: with the SDK's defaults (40 and 100) a few slow receivers
   * held up every other event. Far more (500) let an overloaded worker queue tasks past their
   * timeout (then 10 s), and the retried tasks POSTed again (npm run bench, 1000 events × 1).
   */
  concurrency?: number;
  /** Pre-built bundle (tests reuse one across workers); bundled with {@link preloadModules}, and {@link tracingWorkflowInterceptors} when tracing. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Traces workflows and activities into this process's tracing (absent: no tracing, no cost). */
  tracing?: Tracing | undefined;
  /** Workflow tasks and local activities the bulk lane's worker runs at once (createLaneWorkers; default `concurrency`). */
  bulkConcurrency?: number | undefined;
  /**
   * The machine's CPU use (0–1) past which the worker takes no further workflow task beyond
   * {@link MIN_WORKFLOW_SLOTS}, up to `concurrency` below it (WORKER_TARGET_CPU). Absent or 0:
   * a fixed `concurrency`, which on a saturated machine takes tasks it cannot finish within
   * their timeout, and their retries POST again.
   */
  targetCpu?: number | undefined;
}

/** Workflow task slots a CPU-bounded worker keeps whatever the CPU: what receivers slow to answer may hold while others still move. */
export const MIN_WORKFLOW_SLOTS = 20;

const defaultConcurrency = 200;

/** Creates the delivery worker: our workflows plus activities bound to real dependencies. */
export function createWorker(opts: CreateWorkerOptions): Promise<Worker> {
  return workerWith(opts, activitiesOf(opts));
}

/**
 * One worker per lane (`taskQueue` and its `-bulk` twin), each with slots of its own: a flood
 * started on the bulk lane never holds a slot the default lane's workflows need, and what does
 * not fit its slots (`bulkConcurrency`) waits in Temporal's queue. They share one set of
 * activities, so max_in_flight, caches and batched writes span both lanes.
 */
export function createLaneWorkers(opts: CreateWorkerOptions): Promise<Worker[]> {
  const [defaultQueue, bulkQueue] = laneTaskQueues(opts.taskQueue) as [string, string];
  const activities = activitiesOf({ ...opts, deps: { ...opts.deps, bulkTaskQueue: bulkQueue } });
  // One CPU target for both lanes: they share the process and the machine.
  const controller = opts.targetCpu ? ResourceBasedController.create({ targetCpuUsage: opts.targetCpu, targetMemoryUsage: 0.9 }) : undefined;
  return Promise.all([
    workerWith({ ...opts, taskQueue: defaultQueue }, activities, controller),
    workerWith({ ...opts, taskQueue: bulkQueue, concurrency: opts.bulkConcurrency ?? opts.concurrency }, activities, controller),
  ]);
}

/** The activities over `deps`, which ask the worker's own connection where a workflow stands unless they bring their own way. */
function activitiesOf(opts: CreateWorkerOptions) {
  const runs = opts.deps.workflowRuns ?? workflowRuns(new Client({ connection: opts.connection, namespace: opts.namespace }));
  return createActivities({ ...opts.deps, workflowRuns: runs, ...(opts.tracing ? { tracer: opts.tracing.tracer } : {}) });
}

/** Slots as `concurrency` says; workflow task slots bounded by `controller`'s CPU target when there is one. */
export function workerSlots(concurrency: number, controller: ResourceBasedController | undefined): Pick<WorkerOptions, 'tuner' | 'maxConcurrentWorkflowTaskExecutions' | 'maxConcurrentLocalActivityExecutions'> {
  if (!controller) return { maxConcurrentWorkflowTaskExecutions: concurrency, maxConcurrentLocalActivityExecutions: concurrency };
  const tuner: WorkerTuner = {
    workflowTaskSlotSupplier: { type: 'resource-based', controller, minimumSlots: Math.min(MIN_WORKFLOW_SLOTS, concurrency), maximumSlots: concurrency },
    // A local activity runs inside its workflow task, so the workflow slots bound these too.
    localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: concurrency },
    activityTaskSlotSupplier: { type: 'fixed-size', numSlots: 100 },
    nexusTaskSlotSupplier: { type: 'fixed-size', numSlots: 1 },
  };
  return { tuner };
}

function workerWith(opts: CreateWorkerOptions, activities: ReturnType<typeof activitiesOf>, controller?: ResourceBasedController): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    identity: opts.deps.workerIdentity,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath, bundlerOptions: { preloadModules } }),
    activities,
    ...(opts.tracing
      ? {
          interceptors: {
            workflowModules: tracingWorkflowInterceptors,
            activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx) })],
          },
          // Workflow spans are made in the sandbox and exported here, never during replay.
          sinks: { exporter: makeWorkflowExporter(opts.tracing.spanProcessor, opts.tracing.resource) },
        }
      : {}),
    ...workerSlots(opts.concurrency ?? defaultConcurrency, controller),
  });
}

export { NativeConnection };
