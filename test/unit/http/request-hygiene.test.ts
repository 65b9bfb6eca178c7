import { describe, expect, it } from 'vitest';
import { inspectJson, inspectRequest, MAX_JSON_DEPTH } from '../../../src/http/request-hygiene';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('inspectJson', () => {
  it('accepts nesting up to MAX_JSON_DEPTH and names the body past it, at any depth without recursion', () => {
    expect(inspectJson(nested(MAX_JSON_DEPTH), '/body')).toBeUndefined();
    expect(inspectJson(nested(MAX_JSON_DEPTH + 1), '/body')).toEqual({ path: '/body', message: `must nest at most ${MAX_JSON_DEPTH} levels deep` });
    expect(inspectJson(nested(200_000), '/body')?.path).toBe('/body');
  });

  it('names the string or the object of the key that holds U+0000, as a JSON Pointer', () => {
    expect(inspectJson({ a: { 'b/c': ['ok', 'x\u0000'] } }, '/body')).toMatchObject({ path: '/body/a/b~1c/1', message: expect.stringContaining('U+0000') as unknown });
    expect(inspectJson({ a: { 'k\u0000': 1 } }, '/body')?.path).toBe('/body/a');
    expect(inspectJson({ a: 'plain', n: null, b: true, list: [1, 'two'] }, '/body')).toBeUndefined();
  });
});

describe('inspectRequest', () => {
  const clean = { path: '/api/x', query: {}, headers: { accept: 'application/json' }, body: undefined };
  it('names the path, a header and a query value holding U+0000', () => {
    expect(inspectRequest(clean)).toBeUndefined();
    expect(inspectRequest({ ...clean, path: '/api/x%00' })?.path).toBe('/path');
    expect(inspectRequest({ ...clean, headers: { 'x-note': 'a\u0000' } })?.path).toBe('/headers/x-note');
    expect(inspectRequest({ ...clean, query: { cursor: ['a', 'b\u0000'] } })?.path).toBe('/query/cursor/1');
    // A malformed escape is left to the router.
    expect(inspectRequest({ ...clean, path: '/api/%E0%A4%A' })).toBeUndefined();
  });
});
