/**
 * What the SDK tests (test/integration/sdk/) share: the live stack with demo data, and running an
 * SDK's toolchain with its whole output in the failure.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { seedDemoData } from '../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from './api';

const execFileAsync = promisify(execFile);

/** The repository's root. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a command (from the repository's root unless `cwd`); a failure's message carries its whole output. */
export async function runCommand(
  command: string,
  args: string[],
  opts: { timeout: number; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { cwd: repoRoot, ...opts });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: err });
  }
}

/** The API with the demo catalog and a worker delivering its events; `stop` ends both. */
export async function startSdkStack(): Promise<{ api: TestApi; worker: TestWorker; stop: () => Promise<void> }> {
  const api = await startTestApi();
  await seedDemoData(api.mongo.db);
  const worker = await startTestWorker(api);
  return {
    api,
    worker,
    stop: async () => {
      await worker.stop();
      await api.close();
    },
  };
}

/**
 * Runs an SDK's integrator program (clients/python/tests/e2e.py and its kin) against `api` with a
 * key of its own owner, and checks every step it prints: subscribed, ordered, each delivery
 * verified and parsed, both keys alone through a rotation, the typed error (`errorType 404 ...`).
 */
export async function expectIntegratorRun(api: TestApi, owner: string, command: string, args: string[], errorType: string): Promise<void> {
  const { key } = await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read', 'orders:write'], owner);
  const { stdout } = await runCommand(command, args, { timeout: 170_000, env: { ...process.env, SERVICE_URL: api.baseUrl, API_KEY: key } });
  const order = /^ordered (\d+) /m.exec(stdout)?.[1];
  expect(order, stdout).toBeDefined();
  expect(stdout).toMatch(new RegExp(`^verified hmac evt_\\w+ order.created order ${order}$`, 'm'));
  expect(stdout).toMatch(new RegExp(`^verified ed25519 evt_\\w+ order.created order ${order} v2$`, 'm'));
  for (const path of ['hmac', 'ed25519']) {
    for (const which of ['old', 'new']) expect(stdout).toMatch(new RegExp(`^rotation ${path}: the ${which} key alone verifies evt_\\w+$`, 'm'));
  }
  expect(stdout).toContain('rotation hmac: X-Signature-Previous verifies with the old secret');
  expect(stdout).toMatch(new RegExp(`^${errorType} 404 `, 'm'));
  expect(stdout).toMatch(/^ok$/m);
  expect(stdout).not.toContain('refused');
}
