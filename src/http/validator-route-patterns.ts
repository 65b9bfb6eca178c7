import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';

type Compile = (path: unknown, options?: Record<string, unknown>) => unknown;

interface PathToRegexpModule {
  pathToRegexp: Compile & { memoized?: true };
}

// The copy of path-to-regexp that express-openapi-validator itself loads.
const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));

/**
 * Makes express-openapi-validator compile each route pattern once, not on every request.
 * Its route lookup (5.6, `openapi.metadata.js`) calls path-to-regexp's `pathToRegexp` for every
 * route of the contract until one matches, each time: about 6 µs a route, some 0.2 ms for an
 * order. `pathToRegexp` is a pure function of its path and options, and the validator only reads
 * what it returns, so the same result is reused. Idempotent; called before the validator serves.
 * Returns the module it memoized, for tests.
 */
export function memoizeValidatorRoutePatterns(): PathToRegexpModule {
  const mod = fromValidator('path-to-regexp') as PathToRegexpModule;
  if (mod.pathToRegexp.memoized) return mod;
  const compile = mod.pathToRegexp;
  // Keyed by the contract's routes (what the validator passes): bounded anyway.
  const compiled = new LRUCache<string, object>({ max: 1000 });
  const memoized = (path: unknown, options: Record<string, unknown> = {}): unknown => {
    // Options holding functions (encoders) are not keyed: compiled every time, as before.
    if (typeof path !== 'string' || Object.values(options).some((v) => typeof v === 'function' || (typeof v === 'object' && v !== null))) return compile(path, options);
    const key = `${JSON.stringify(options)}\n${path}`;
    let result = compiled.get(key);
    if (!result) compiled.set(key, (result = compile(path, options) as object));
    return result;
  };
  mod.pathToRegexp = Object.assign(memoized, { memoized: true as const });
  return mod;
}
