import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedBinary } from '../../stack/runtime/binaries';
import { BinaryError, buildIntoCache, isExecutable, runWithProgress } from '../../stack/runtime/build-cache';

const pomPath = join(dirname(dirname(fileURLToPath(import.meta.url))), 'temporal-test-server', 'pom.xml');
const envVar = 'TEMPORAL_TEST_SERVER_PATH';
const name = 'temporal-test-server';

/** io.temporal:temporal-test-server version pinned in tools/temporal-test-server/pom.xml. */
export const testServerVersion = /<temporal\.version>([^<]+)<\/temporal\.version>/.exec(readFileSync(pomPath, 'utf8'))?.[1] ?? 'unknown';

/** Cache directory name: changes whenever the pom (and so the classpath) changes. */
export const testServerCacheKey = `${name}-${testServerVersion}-${createHash('sha256').update(readFileSync(pomPath)).digest('hex').slice(0, 12)}`;

export interface TestServerOptions {
  cacheDir: string;
  /** Progress output for a first-time Maven resolution. */
  log?: (line: string) => void;
}

/**
 * Resolves Temporal's Java time-skipping test server as an executable for
 * `TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } })`:
 * TEMPORAL_TEST_SERVER_PATH, then the cache outside the clone, then a Maven resolution
 * (jars into ~/.m2) plus a `java -cp` wrapper script.
 */
export async function resolveTimeSkippingServer(opts: TestServerOptions): Promise<string> {
  return (await resolveTestServerBinary(opts)).path;
}

/** Like {@link resolveTimeSkippingServer}, also saying where the executable came from. */
export async function resolveTestServerBinary(opts: TestServerOptions): Promise<ResolvedBinary> {
  const explicit = process.env[envVar];
  if (explicit) {
    if (!isExecutable(explicit)) throw new BinaryError(`${envVar}=${explicit} is not an executable file`);
    return { path: explicit, source: 'env' };
  }
  // The wrapper runs `java`; failing here beats the SDK's bare "did not start within 5s".
  requireTool(javaCommand(), ['-version']);
  const dir = join(opts.cacheDir, testServerCacheKey);
  const wrapper = join(dir, name);
  if (missingJars(dir) === undefined) {
    // The pom hash keys the cache, not this file: refresh a wrapper written by an older template.
    if (readFileSync(wrapper, 'utf8') !== wrapperScript(dir)) writeWrapper(dir, dir);
    return { path: wrapper, source: 'cache' };
  }
  await build(dir, opts.log ?? ((line) => process.stderr.write(`${line}\n`)));
  return { path: wrapper, source: 'built' };
}

// The wrapper prefers $JAVA_HOME's java, as most JVM launchers do; check the same one.
const javaCommand = () => (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java');

function requireTool(cmd: string, args: string[]): void {
  if (spawnSync(cmd, args, { stdio: 'ignore' }).status === 0) return;
  const where = cmd === 'mvn' ? 'mvn is not on PATH' : `${cmd} cannot be run (PATH, or JAVA_HOME if set)`;
  throw new BinaryError(
    `Cannot provide the Temporal time-skipping test server: ${where}. Either install Java 17+ and Maven 3.8+ ` +
      `(Maven only for the first-time fetch from Maven Central), or set ${envVar} to an existing ` +
      `temporal-test-server executable (e.g. the native build from the Java SDK's GitHub releases).`,
  );
}

/**
 * Undefined when `dir` holds a usable wrapper; otherwise why not. The cache can outlive
 * ~/.m2 (a fresh machine, a cleaned Maven repo), so every classpath jar must still exist.
 */
function missingJars(dir: string): string | undefined {
  const classpathFile = join(dir, 'classpath.txt');
  if (!isExecutable(join(dir, name)) || !existsSync(classpathFile)) return 'not fetched yet';
  const jars = readFileSync(classpathFile, 'utf8').trim().split(':').filter(Boolean);
  if (jars.length === 0) return 'empty classpath';
  const missing = jars.find((jar) => !existsSync(jar));
  return missing === undefined ? undefined : `${missing} is gone (was ~/.m2 cleared?)`;
}

async function build(dir: string, log: (line: string) => void): Promise<void> {
  requireTool('mvn', ['-v']);
  await buildIntoCache(dir, {
    name,
    isReady: () => missingJars(dir) === undefined,
    build: async (staging) => {
      const args = ['-B', '-f', pomPath, 'dependency:build-classpath', '-Dmdep.includeScope=runtime', `-Dmdep.outputFile=${join(staging, 'classpath.txt')}`];
      log(`[build ${name}] ${missingJars(dir)}: mvn ${args.join(' ')} (jars go to ~/.m2; wrapper cached in ${dir})`);
      const started = Date.now();
      await runWithProgress('mvn', args, {
        name,
        log,
        // Batch mode prints one line per finished transfer: a cheap progress signal.
        counts: (line) => line.includes('Downloaded from'),
        unit: 'files downloaded',
      });
      writeWrapper(staging, dir);
      log(`[build ${name}] done in ${Math.round((Date.now() - started) / 1000)}s`);
    },
  });
}

/** Writes the wrapper for final directory `dir` into `into`, atomically (a test may be starting it). */
function writeWrapper(into: string, dir: string): void {
  const tmp = join(into, `${name}.tmp`);
  writeFileSync(tmp, wrapperScript(dir));
  chmodSync(tmp, 0o755);
  renameSync(tmp, join(into, name));
}

/**
 * The executable the SDK runs as `<wrapper> <port> [extraArgs...]` (sdk-core's TestServerConfig).
 * Arguments pass through untouched: without `--enable-time-skipping` the server starts with
 * time skipping locked, which is what the SDK expects; its client unlocks it while awaiting results.
 */
function wrapperScript(dir: string): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  return `#!/bin/sh
# Temporal time-skipping test server ${testServerVersion} from Maven Central; written by tools/lib/test-server.ts.
# Usage (as @temporalio/testing runs it): ${name} <port> [extra args...]
classpath="$(cat ${q(join(dir, 'classpath.txt'))})" || exit 1
# ~/.m2 may have been cleared since this was written: say so instead of a ClassNotFoundException.
set -f
old_ifs=$IFS
IFS=:
for jar in $classpath; do
  if [ ! -f "$jar" ]; then
    echo "${name}: missing $jar (was ~/.m2 cleared?); run 'npm run binaries' to fetch it again" >&2
    exit 1
  fi
done
IFS=$old_ifs
# exec, so the SDK's kill on teardown reaches the JVM; C1-only JIT and serial GC start it within the SDK's 5s window.
exec "\${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \\
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \\
  -cp "$classpath" io.temporal.testserver.TestServer "$@"
`;
}

