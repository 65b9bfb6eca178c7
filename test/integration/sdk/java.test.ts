/**
 * The Java SDK against the live service: `mvn test` of clients/java (the shared vectors in Java),
 * then a program of its own Maven project (clients/java/examples/e2e) that subscribes through the
 * SDK, places an order, receives the deliveries on its own receiver, verifies them (HMAC and
 * Ed25519, through a rotation) and parses them into typed events. The example is compiled against
 * this checkout's target/classes and the SDK's dependency classpath, never an SDK installed into
 * the shared ~/.m2 (a concurrent checkout could have put its own there); Maven only resolves
 * dependencies from ~/.m2: the first run downloads, later ones do not.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../support/api';
import { expectIntegratorRun, repoRoot as root, runCommand as run, startSdkStack } from '../../support/sdk';

const sdk = join(root, 'clients/java');
const example = join(sdk, 'examples/e2e');
// Full coordinates: no plugin-prefix lookup, so a warm run needs no network.
const buildClasspath = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath';

/** Every .java file under `dir`. */
function javaSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.java')).map((f) => join(dir, f));
}

describe('Java SDK: installed from the repository, against the service', () => {
  let api: TestApi;
  let stop: (() => Promise<void>) | undefined;
  let classpath: string;

  beforeAll(async () => {
    ({ api, stop } = await startSdkStack());
    // Every run builds and tests the SDK as it is now (the shared vectors included) and writes what
    // an integrator's project gets with it: its runtime dependencies.
    await run('mvn', ['-B', '-q', 'test', buildClasspath, '-DincludeScope=runtime', '-Dmdep.outputFile=target/classpath.txt'], { cwd: sdk, timeout: 600_000 });
    const sdkClasspath = `${join(sdk, 'target/classes')}:${readFileSync(join(sdk, 'target/classpath.txt'), 'utf8').trim()}`;
    const classes = join(example, 'target/classes');
    rmSync(classes, { recursive: true, force: true });
    mkdirSync(classes, { recursive: true });
    await run('javac', ['--release', '17', '-encoding', 'UTF-8', '-d', classes, '-cp', sdkClasspath, ...javaSources(join(example, 'src/main/java'))], { timeout: 300_000 });
    classpath = `${classes}:${sdkClasspath}`;
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
