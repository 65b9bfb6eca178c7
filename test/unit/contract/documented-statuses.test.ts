import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';

type Operation = { operationId?: string; requestBody?: unknown; responses?: Record<string, unknown> };
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** Every operation of the contract, with its method and path. */
function operations(): Array<{ name: string; op: Operation }> {
  const paths = (loadContract().paths ?? {}) as Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((m) => (item[m] ? [{ name: `${m.toUpperCase()} ${path}`, op: item[m] }] : [])),
  );
}

describe('the contract documents the statuses the server answers', () => {
  it('has a 415 on every operation that takes a body (the server refuses other media types)', () => {
    const missing = operations().filter(({ op }) => op.requestBody !== undefined && op.responses?.['415'] === undefined);
    expect(missing.map((o) => o.name)).toEqual([]);
  });
});
