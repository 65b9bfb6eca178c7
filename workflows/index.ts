// The worker's workflow bundle entry: every workflow the task queue serves.
export { diagnosticsWorkflow } from './diagnostics';
export { drainWorkflow } from './drain';
export { eventWorkflow } from './event';
export { retentionWorkflow } from './retention';
