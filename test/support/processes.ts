// Process-tree helpers for tests that check nothing outlives a stop.
export { descendants, isAlive } from '../../tools/lib/proc-tree';
