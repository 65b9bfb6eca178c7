import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PartExit, privateStackConfig, type Stack, type StackPart, startStack } from '../../../stack/runtime/stack';
import { descendants, isAlive } from '../../support/processes';
import { waitFor } from '../../support/wait';

const ready = (url: string) => fetch(`${url}/readyz`).then((r) => r.status, () => 0);

// The launcher every entry point uses: its own servers, two APIs and a worker, each killed and started again.
describe('startStack', () => {
  let stack: Stack;
  const unexpected: Array<{ part: string; exit: PartExit }> = [];
  let dataDir = '';

  beforeAll(async () => {
    const config = await privateStackConfig({ BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR, EMBEDDED_DB_BACKEND: process.env.EMBEDDED_DB_BACKEND, POSTGRES_BIN_DIR: process.env.POSTGRES_BIN_DIR }, 'webhook-stack-test');
    dataDir = config.dataDir;
    stack = await startStack({
      config,
      apis: 2,
      workers: 1,
      freePorts: true,
      headless: true,
      fastSqlite: true,
      log: () => {},
      serviceEnv: { LOG_LEVEL: 'warn', CALLBACK_ALLOW_PRIVATE: 'true', SEED_DEMO_DATA: 'false', MONGODB_DB: 'stack_test' },
      onUnexpectedExit: (part: StackPart, exit) => unexpected.push({ part: part.name, exit }),
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('starts the servers, two APIs on their own ports and a worker serving metrics', async () => {
    expect(stack.apis.map((a) => a.name)).toEqual(['api-0', 'api-1']);
    expect(new Set(stack.apis.map((a) => a.url)).size).toBe(2);
    for (const api of stack.apis) expect(await ready(api.url)).toBe(200);
    expect((await fetch(stack.workers[0]!.metricsUrl!)).status).toBe(200);
    expect(stack.serverParts.map((p) => p.name)).toContain('temporal');
    expect(stack.servers.env.MONGODB_URI).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    // Events link to HOST:PORT without PUBLIC_URL: the worker must have the first API's port.
    const workerEnv = readFileSync(`/proc/${stack.part('worker').pid}/environ`, 'utf8').split('\0');
    expect(workerEnv).toContain(`PORT=${new URL(stack.apis[0]!.url).port}`);
  });

  it('kills a worker with its descendants and starts it again, without calling that unexpected', async () => {
    const worker = stack.part('worker');
    const pid = worker.pid!;
    const tree = descendants(pid);
    await worker.kill();
    expect([pid, ...tree].filter(isAlive)).toEqual([]);
    expect(worker.pid).toBeUndefined();
    await worker.start();
    expect(worker.pid).not.toBe(pid);
    expect((await fetch(stack.workers[0]!.metricsUrl!)).status).toBe(200);
    expect(unexpected).toEqual([]);
  }, 240_000);

  it('kills Temporal; the APIs turn unready and ready again once it is started on the same port', async () => {
    const temporal = stack.part('temporal');
    await temporal.kill();
    await waitFor(async () => (await ready(stack.apis[0]!.url)) === 503, 60_000, 250);
    await temporal.start();
    await waitFor(async () => (await ready(stack.apis[0]!.url)) === 200, 120_000, 500);
  }, 240_000);

  it('reports a part that dies by itself', async () => {
    const api = stack.part('api-1');
    process.kill(api.pid!, 'SIGKILL');
    await waitFor(() => unexpected.length > 0, 10_000);
    expect(unexpected[0]).toMatchObject({ part: 'api-1', exit: { signal: 'SIGKILL' } });
    await api.start();
    expect(await ready(stack.apis[1]!.url)).toBe(200);
  }, 240_000);

  it('stops everything: no part and no descendant outlives stop()', async () => {
    const pids = Object.values(stack.pids()).filter((p): p is number => p !== undefined);
    const all = pids.flatMap((p) => [p, ...descendants(p)]);
    await stack.stop();
    expect(all.filter(isAlive)).toEqual([]);
  }, 120_000);
});
