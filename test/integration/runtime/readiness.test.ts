import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import { createApp } from '../../../src/http/app';
import { createLogger } from '../../../src/logger';
import { createAppDeps } from '../../../src/compose/app-deps';
import { TemporalGateway } from '../../../src/temporal/connection';
import { type PrivateMongo, startPrivateMongo, tempDir } from '../../support/servers';

/** Polls `url` until its status is `status` (bounded), returning the last body. */
async function waitForStatus(url: string, status: number, timeoutMs: number): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  let last: { status: number; body: unknown } | undefined;
  while (Date.now() < deadline) {
    const res = await fetch(url);
    last = { status: res.status, body: await res.json() };
    if (last.status === status) return last.body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`expected ${status} from ${url}, last got ${JSON.stringify(last)}`);
}

describe('/readyz follows the database; /healthz does not', () => {
  const dataDir = tempDir('readiness');
  let db: PrivateMongo;
  let mongo: Mongo;
  let temporal: TemporalGateway;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    db = await startPrivateMongo(dataDir);
    mongo = createMongo(db.uri, 'readiness_test', 'readiness-test');
    temporal = new TemporalGateway(inject('temporalAddress'), 'default');
    const app = createApp(createAppDeps({ db: mongo.db, temporal, logger: createLogger('silent', 'test'), config: loadConfig({}) }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await Promise.all([mongo.close(), temporal.close(), db.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is 200 with both dependencies up', async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { mongodb: 'up', temporal: 'up', admission: 'open' } });
  });

  it('turns 503 naming mongodb when the database process stops, and 200 when it is back', async () => {
    const port = Number(new URL(db.uri).port);
    await db.stop();

    const down = await waitForStatus(`${base}/readyz`, 503, 15_000);
    expect(down).toEqual({ status: 'unavailable', checks: { mongodb: 'down', temporal: 'up', admission: 'open' } });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    db = await startPrivateMongo(dataDir, port);
    const up = await waitForStatus(`${base}/readyz`, 200, 30_000);
    expect(up).toEqual({ status: 'ready', checks: { mongodb: 'up', temporal: 'up', admission: 'open' } });
  });

  it('reports temporal down when Temporal cannot be reached', async () => {
    const unreachable = new TemporalGateway('127.0.0.1:1', 'default');
    const app = createApp(
      createAppDeps({ db: mongo.db, temporal: unreachable, logger: createLogger('silent', 'test'), config: loadConfig({}) }),
    );
    const s = app.listen(0, '127.0.0.1');
    await new Promise((r) => s.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'unavailable', checks: { mongodb: 'up', temporal: 'down', admission: 'open' } });
    } finally {
      await new Promise((r) => s.close(r));
    }
  });
});
