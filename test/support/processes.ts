// Process-tree helpers for tests that check nothing outlives a stop.
export { descendants, isAlive } from '../../src/runtime/proc-tree';
