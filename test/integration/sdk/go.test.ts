/**
 * The Go SDK against the live service, as an integrator uses it: `go test` of clients/go (the
 * shared vectors in Go), then a program in its own module (clients/go/examples/e2e, requiring the
 * SDK's module path with a replace to this repository) that subscribes through the SDK, places an
 * order, receives the deliveries on its own receiver, verifies them (HMAC and Ed25519, through a
 * rotation) and parses them into typed events. Go's module and build caches are the machine's.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../support/api';
import { expectIntegratorRun, repoRoot as root, runCommand as run, startSdkStack } from '../../support/sdk';

const sdk = join(root, 'clients/go');
const program = join(root, '.data/bin/sdk-go-e2e');

describe('Go SDK: required by module path from the repository, against the service', () => {
  let api: TestApi;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ api, stop } = await startSdkStack());
    // Every run builds the SDK as it is now; downloaded modules stay in Go's cache between runs.
    await run('go', ['build', '-o', program, '.'], { cwd: join(sdk, 'examples/e2e'), timeout: 300_000 });
  }, 400_000);
  afterAll(async () => {
    await stop?.();
  });

  it('passes the shared vectors', { timeout: 300_000 }, async () => {
    const { stdout } = await run('go', ['test', '-count=1', '-v', './...'], { cwd: sdk, timeout: 300_000 });
    expect(stdout).toMatch(/^--- PASS: TestSharedVectors /m);
    expect(stdout.match(/^ {4}--- PASS: TestSharedVectors\//gm)?.length ?? 0).toBeGreaterThanOrEqual(25);
    expect(stdout).not.toMatch(/--- FAIL/);
    expect(stdout).toMatch(/^ok\s+github\.com\/webhook-service\/webhook-service\/clients\/go\s/m);
  });

  it('subscribes, orders, verifies and parses deliveries through a rotation', { timeout: 180_000 }, async () => {
    await expectIntegratorRun(api, 'owner-go-sdk', program, [], 'APIError');
  });
});
