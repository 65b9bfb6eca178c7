// Process-tree helpers for tests that check nothing outlives a stop.
export { descendants, isAlive } from '../../stack/runtime/proc-tree';
