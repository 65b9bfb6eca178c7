/**
 * The Python SDK against the live service, as an integrator installs it: a venv (kept under
 * .data/venvs), `pip install` of a copy of clients/python, the shared vectors in Python, then a program that
 * subscribes through the SDK, places an order, receives the deliveries on its own receiver,
 * verifies them (HMAC and Ed25519, through a rotation) and parses them into typed events.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../support/api';
import { expectIntegratorRun, repoRoot as root, runCommand as run, startSdkStack } from '../../support/sdk';

const venv = join(root, '.data/venvs/sdk-python');
const python = join(venv, 'bin/python');

describe('Python SDK: installed from the repository, against the service', () => {
  let api: TestApi;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ api, stop } = await startSdkStack());
    if (!existsSync(python)) {
      mkdirSync(join(root, '.data/venvs'), { recursive: true });
      await run('python3', ['-m', 'venv', venv], { timeout: 60_000 });
    }
    // Every run installs the SDK as it is now; its dependencies stay in the venv between runs. From
    // a copy: setuptools builds in place and never empties build/lib, so a file deleted from the
    // SDK would otherwise still be installed.
    const copy = mkdtempSync(join(tmpdir(), 'sdk-python-'));
    try {
      cpSync(join(root, 'clients/python'), copy, { recursive: true, filter: (from) => !/(^|\/)(build|__pycache__|\.ruff_cache|[^/]*\.egg-info)$/.test(from) });
      await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', copy], { timeout: 300_000 });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 400_000);
  afterAll(async () => {
    await stop?.();
  });

  it('passes the shared vectors', { timeout: 60_000 }, async () => {
    const { stderr } = await run(python, ['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-p', 'test_*.py'], { timeout: 60_000 });
    expect(stderr).toMatch(/^Ran \d+ tests/m);
    expect(stderr).toMatch(/^OK$/m);
  });

  it('subscribes, orders, verifies and parses deliveries through a rotation', { timeout: 180_000 }, async () => {
    await expectIntegratorRun(api, 'owner-python-sdk', python, ['clients/python/tests/e2e.py'], 'ApiError');
  });
});
