import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BinaryError, type BinarySpec, cachedBinaryPath, resolveBinary } from '../../../stack/runtime/binaries';

const dirs: string[] = [];
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'binaries-test-'));
  dirs.push(d);
  return d;
}
function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const spec: BinarySpec = {
  name: 'fake-server',
  cacheKey: 'fake-server-v1',
  envVar: 'FAKE_SERVER_PATH',
  alternative: 'set FAKE_URI to use an existing server',
  goArgs: () => ({ args: ['version'] }),
};

describe('resolveBinary', () => {
  it('prefers the explicit path variable over PATH and cache', async () => {
    const explicit = executable(join(dir(), 'mine'));
    const onPath = dir();
    executable(join(onPath, 'fake-server'));
    const cache = dir();
    executable(cachedBinaryPath(spec, cache));
    expect(await resolveBinary(spec, { explicitPath: explicit, pathEnv: onPath, cacheDir: cache })).toEqual({
      path: explicit,
      source: 'env',
    });
  });

  it('rejects an explicit path that is not executable, naming the variable', async () => {
    await expect(resolveBinary(spec, { explicitPath: '/nonexistent/x', cacheDir: dir() })).rejects.toThrow(
      'FAKE_SERVER_PATH=/nonexistent/x is not an executable file',
    );
  });

  it('uses the program on PATH before the cache', async () => {
    const onPath = dir();
    const bin = executable(join(onPath, 'fake-server'));
    const cache = dir();
    executable(cachedBinaryPath(spec, cache));
    expect(await resolveBinary(spec, { pathEnv: onPath, cacheDir: cache })).toEqual({ path: bin, source: 'path' });
  });

  it('falls back to the cache outside the clone, keyed by version', async () => {
    const cache = dir();
    const cached = executable(cachedBinaryPath(spec, cache));
    expect(cached).toBe(join(cache, 'fake-server-v1', 'fake-server'));
    expect(await resolveBinary(spec, { pathEnv: dir(), cacheDir: cache })).toEqual({ path: cached, source: 'cache' });
  });

  it('without Go, tells the three ways out', async () => {
    const err = await resolveBinary(spec, { pathEnv: dir(), cacheDir: dir(), log: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BinaryError);
    const message = (err as Error).message;
    expect(message).toContain('the Go toolchain (go) is not on PATH');
    expect(message).toContain('install Go');
    expect(message).toContain('set FAKE_SERVER_PATH to an existing fake-server binary');
    expect(message).toContain('set FAKE_URI to use an existing server');
  });
});
