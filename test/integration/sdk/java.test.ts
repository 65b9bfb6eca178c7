/**
 * The Java SDK against the live service, as an integrator installs it: `mvn install` of
 * clients/java (which runs the shared vectors in Java), then a program of its own Maven project
 * (clients/java/examples/e2e) that subscribes through the SDK, places an order, receives the
 * deliveries on its own receiver, verifies them (HMAC and Ed25519, through a rotation) and parses
 * them into typed events. Maven resolves into ~/.m2: the first run downloads, later ones do not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../support/api';
import { expectIntegratorRun, repoRoot as root, runCommand as run, startSdkStack } from '../../support/sdk';

const sdk = join(root, 'clients/java');
const example = join(sdk, 'examples/e2e');
// Full coordinates: no plugin-prefix lookup, so a warm run needs no network.
const buildClasspath = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath';

describe('Java SDK: installed from the repository, against the service', () => {
  let api: TestApi;
  let stop: (() => Promise<void>) | undefined;
  let classpath: string;

  beforeAll(async () => {
    ({ api, stop } = await startSdkStack());
    // Every run installs the SDK as it is now (its tests, the shared vectors, included).
    await run('mvn', ['-B', '-q', 'install'], { cwd: sdk, timeout: 600_000 });
    await run('mvn', ['-B', '-q', 'compile', buildClasspath, '-Dmdep.outputFile=target/classpath.txt'], { cwd: example, timeout: 300_000 });
    classpath = `${join(example, 'target/classes')}:${readFileSync(join(example, 'target/classpath.txt'), 'utf8').trim()}`;
  }, 900_000);
  afterAll(async () => {
    await stop?.();
  });

  it('passes the shared vectors', () => {
    const report = readFileSync(join(sdk, 'target/surefire-reports/TEST-org.webhookservice.SharedVectorsTest.xml'), 'utf8');
    const count = (name: string) => Number(new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`).exec(report)?.[1]);
    expect(count('tests')).toBeGreaterThanOrEqual(29);
    expect([count('failures'), count('errors'), count('skipped')]).toEqual([0, 0, 0]);
  });

  it('subscribes, orders, verifies and parses deliveries through a rotation', { timeout: 180_000 }, async () => {
    await expectIntegratorRun(api, 'owner-java-sdk', 'java', ['-cp', classpath, 'org.webhookservice.examples.E2e'], 'ApiProblemException');
  });
});
