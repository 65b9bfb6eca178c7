/**
 * The Python SDK against the live service, as an integrator installs it: a venv (kept under
 * .data/venvs), `pip install ./clients/python`, the shared vectors in Python, then a program that
 * subscribes through the SDK, places an order, receives the deliveries on its own receiver,
 * verifies them (HMAC and Ed25519, through a rotation) and parses them into typed events.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { runCommand } from '../../support/run-command';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const venv = join(root, '.data/venvs/sdk-python');
const python = join(venv, 'bin/python');
const run = (command: string, args: string[], opts: { timeout: number; env?: NodeJS.ProcessEnv }) => runCommand(command, args, { cwd: root, ...opts });

describe('Python SDK: installed from the repository, against the service', () => {
  let api: TestApi;
  let worker: TestWorker;

  beforeAll(async () => {
    api = await startTestApi();
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
    if (!existsSync(python)) {
      mkdirSync(join(root, '.data/venvs'), { recursive: true });
      await run('python3', ['-m', 'venv', venv], { timeout: 60_000 });
    }
    // Every run installs the SDK as it is now; its dependencies stay in the venv between runs.
    await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', './clients/python'], { timeout: 300_000 });
  }, 400_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
  });

  it('passes the shared vectors', { timeout: 60_000 }, async () => {
    const { stderr } = await run(python, ['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-p', 'test_*.py'], { timeout: 60_000 });
    expect(stderr).toMatch(/^Ran \d+ tests/m);
    expect(stderr).toMatch(/^OK$/m);
  });

  it('subscribes, orders, verifies and parses deliveries through a rotation', { timeout: 180_000 }, async () => {
    const { key } = await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read', 'orders:write'], 'owner-python-sdk');
    const { stdout } = await run(python, ['clients/python/tests/e2e.py'], { timeout: 170_000, env: { ...process.env, SERVICE_URL: api.baseUrl, API_KEY: key } });
    const order = /^ordered (\d+) /m.exec(stdout)?.[1];
    expect(order, stdout).toBeDefined();
    expect(stdout).toMatch(new RegExp(`^verified hmac evt_\\w+ order.created order ${order}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^verified ed25519 evt_\\w+ order.created order ${order} v2$`, 'm'));
    for (const path of ['hmac', 'ed25519']) {
      for (const which of ['old', 'new']) expect(stdout).toMatch(new RegExp(`^rotation ${path}: the ${which} key alone verifies evt_\\w+$`, 'm'));
    }
    expect(stdout).toContain('rotation hmac: X-Signature-Previous verifies with the old secret');
    expect(stdout).toMatch(/^ApiError 404 /m);
    expect(stdout).toMatch(/^ok$/m);
    expect(stdout).not.toContain('refused');
  });
});
