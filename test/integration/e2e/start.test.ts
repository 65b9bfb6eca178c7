import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/receiver/verify';
import { getFreePort, isPortFree } from '../../../stack/runtime/ports';
import { descendants, isAlive } from '../../support/processes';
import { docWalkthrough, runWalkthrough } from '../../support/docs';
import { startReceiver } from '../../support/receiver';
import { tempDir } from '../../support/servers';
import { waitFor } from '../../support/wait';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs `npm start`'s entry point directly, or `npm start` itself, with the given environment. */
function start(env: Record<string, string>, viaNpm = false): Started {
  const [command, args] = viaNpm ? ['npm', ['start']] : [process.execPath, ['--import', 'tsx', 'stack/entry/start.ts']];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, MONGODB_URI: '', TEMPORAL_ADDRESS: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function waitForOutput(s: Started, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!s.output().includes(text)) {
    if (s.child.exitCode !== null) throw new Error(`exited ${s.child.exitCode} before "${text}":\n${s.output()}`);
    if (Date.now() > deadline) throw new Error(`no "${text}" within ${timeoutMs}ms:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('npm start: embedded mode', () => {
  const dataDir = tempDir('start');
  const running: Started[] = [];
  afterAll(() => {
    // A test that failed half-way leaves a supervisor with servers below it: kill the whole tree,
    // or the servers outlive the run (SIGKILL of the supervisor alone orphans them).
    for (const s of running) {
      if (s.child.exitCode !== null || s.child.pid === undefined) continue;
      for (const pid of [...descendants(s.child.pid), s.child.pid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts everything, delivers a signed order event, refuses a busy port by name, stops cleanly, and a second start reuses the data', async () => {
    const ports = {
      PORT: String(await getFreePort()),
      MONGO_PORT: String(await getFreePort()),
      TEMPORAL_PORT: String(await getFreePort()),
      TEMPORAL_UI_PORT: String(await getFreePort()),
      WORKER_METRICS_PORT: String(await getFreePort()),
      POSTGRES_PORT: String(await getFreePort()),
    };
    // The receiver of the delivery below listens on loopback.
    const env = { ...ports, DATA_DIR: dataDir, CALLBACK_ALLOW_PRIVATE: 'true' };
    const first = start(env);
    running.push(first);
    await waitForOutput(first, 'Webhook service is running', 180_000);

    const base = `http://127.0.0.1:${ports.PORT}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { mongodb: 'up', temporal: 'up', admission: 'open' } });
    const ui = await fetch(`http://127.0.0.1:${ports.TEMPORAL_UI_PORT}/`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('<html');
    // Both metrics endpoints are up and announced; the worker's carries the Temporal SDK's own.
    expect(first.output()).toContain(`${base}/metrics (API)  http://127.0.0.1:${ports.WORKER_METRICS_PORT}/metrics (worker)`);
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('http_request_duration_seconds_bucket');
    const workerMetrics = () => fetch(`http://127.0.0.1:${ports.WORKER_METRICS_PORT}/metrics`).then((r) => r.text());
    expect(await workerMetrics()).toContain('webhook_delivery_attempts_total');
    // The SDK's own metrics appear once its worker polls (after bundling the workflows).
    await waitFor(async () => /^temporal_/m.test(await workerMetrics()), 60_000, 500);

    // Start, deliver, stop: an order placed on the running stack reaches a receiver, signed.
    const receiver = await startReceiver((_req, res) => res.writeHead(204).end());
    try {
      const auth = { Authorization: `Bearer ${readFileSync(join(dataDir, 'admin-api-key'), 'utf8').trim()}`, 'Content-Type': 'application/json' };
      const subscribed = await fetch(`${base}/api/webhooks/v1/subscribe`, { method: 'POST', headers: auth, body: JSON.stringify({ url: receiver.url, events: ['order.created'] }) });
      expect(subscribed.status).toBe(201);
      const { secret } = (await subscribed.json()) as { secret: string };
      const placed = await fetch(`${base}/api/orders/`, { method: 'POST', headers: auth, body: JSON.stringify({ user_id: 1, items: [{ product_id: 1, quantity: 1 }] }) });
      expect(placed.status).toBe(201);
      const order = (await placed.json()) as { id: number };
      await waitFor(() => receiver.received.length > 0, 30_000);
      const delivered = receiver.received[0]!;
      expect(verify(delivered.body, delivered.headers, secret)).toMatchObject({ event: 'order.created', data: { order_id: order.id } });
    } finally {
      await receiver.close();
    }

    const mongo = new MongoClient(`mongodb://127.0.0.1:${ports.MONGO_PORT}/`);
    await mongo.db('start_test').collection<{ _id: string }>('marks').insertOne({ _id: 'first-run' });
    await mongo.close();

    // A second instance on the same ports fails fast and names the variable to change.
    const clash = start(env);
    running.push(clash);
    expect(await clash.exited).toBe(1);
    expect(clash.output()).toContain(`Port ${ports.PORT} (API) is already in use`);
    expect(clash.output()).toContain('set PORT to a free port');

    const tree = descendants(first.child.pid!);
    expect(tree.length).toBeGreaterThanOrEqual(4); // database, temporal, api, worker
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const deadline = Date.now() + 10_000;
    while (tree.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(tree.filter(isAlive)).toEqual([]);
    for (const port of Object.values(ports)) expect(await isPortFree(Number(port))).toBe(true);

    // Second run through npm itself: npm does not pass SIGTERM on through its shell, so the
    // supervisor notices its parent is gone and stops everything anyway.
    const second = start(env, true);
    running.push(second);
    await waitForOutput(second, 'Webhook service is running', 180_000);
    const again = new MongoClient(`mongodb://127.0.0.1:${ports.MONGO_PORT}/`);
    const mark = await again.db('start_test').collection<{ _id: string }>('marks').findOne({ _id: 'first-run' });
    await again.close();
    expect(mark).toEqual({ _id: 'first-run' });

    // The portal walkthrough of docs/integrators.md, as written but for the port and the data directory.
    const walkthrough = docWalkthrough(root, 'portal-link', { 'localhost:3000': `127.0.0.1:${ports.PORT}`, '.data/': `${dataDir}/` });
    const link = (await runWalkthrough(root, walkthrough)).trim();
    expect(link).toMatch(new RegExp(`^${base}/portal#token=whps_[\\w-]+\\.[\\w-]+$`));
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const token = link.slice(link.indexOf('#token=') + '#token='.length);
    const current = await fetch(`${base}/api/webhooks/v1/portal-sessions/current`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await current.json()).toMatchObject({ owner_id: 'customer-42', admin: false });
    // An administrator session links to the embedded Temporal UI that npm start runs.
    const apiKey = readFileSync(join(dataDir, 'admin-api-key'), 'utf8').trim();
    const opened = await fetch(`${base}/api/webhooks/v1/portal-sessions`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` } });
    const adminToken = ((await opened.json()) as { token: string }).token;
    const adminSession = await fetch(`${base}/api/webhooks/v1/portal-sessions/current`, { headers: { Authorization: `Bearer ${adminToken}` } });
    expect(await adminSession.json()).toMatchObject({ admin: true, temporal_ui_url: `http://localhost:${ports.TEMPORAL_UI_PORT}` });
    const secondTree = descendants(second.child.pid!);
    expect(secondTree.length).toBeGreaterThanOrEqual(5); // sh, supervisor, database, temporal, api, worker
    second.child.kill('SIGTERM');
    await second.exited;
    const until = Date.now() + 30_000;
    while (secondTree.some(isAlive) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(secondTree.filter(isAlive)).toEqual([]);
    for (const port of Object.values(ports)) expect(await isPortFree(Number(port))).toBe(true);
  });
});
