import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BinaryError, buildIntoCache, runWithProgress } from './build-cache';

/** What starting a Java server from Maven Central needs: `java` and its classpath (jars in ~/.m2). */
export interface JavaInstall {
  java: string;
  classpath: string;
}

/** A Java server the tests run, described by a pom whose dependencies are its runtime classpath. */
export interface MavenServer {
  /** Cache directory prefix and progress name: `kafka`, `elasticmq`. */
  name: string;
  /** The version the pom pins, in the cache directory's name. */
  version: string;
  /** What it is, in messages: `Apache Kafka 4.4.0`. */
  title: string;
  /** Who needs it, in messages: `the Kafka destination tests`. */
  neededBy: string;
  pomPath: string;
}

/** The `<{property}>` value of a pom, or `unknown`. */
export function pomProperty(pomPath: string, property: string): string {
  const escaped = property.replace(/[.]/g, '\\.');
  return new RegExp(`<${escaped}>([^<]+)</${escaped}>`).exec(readFileSync(pomPath, 'utf8'))?.[1] ?? 'unknown';
}

const javaCommand = () => (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java');

/** The classpath file in the cache, when every jar it names is still there (~/.m2 can be cleared apart from it). */
function cachedClasspath(dir: string): string | undefined {
  const file = join(dir, 'classpath.txt');
  if (!existsSync(file)) return undefined;
  const jars = readFileSync(file, 'utf8').trim().split(':').filter(Boolean);
  return jars.length > 0 && jars.every((jar) => existsSync(jar)) ? jars.join(':') : undefined;
}

/**
 * Finds `server`'s classpath in `cacheDir`, or resolves it from Maven Central first (jars into
 * ~/.m2, once per machine; the cache entry changes whenever the pom does); fails naming the fix
 * when Java or Maven is missing.
 */
export async function requireMavenServer(server: MavenServer, cacheDir: string, log: (line: string) => void): Promise<JavaInstall> {
  const java = javaCommand();
  if (spawnSync(java, ['-version'], { stdio: 'ignore' }).status !== 0) {
    throw new BinaryError(`Java is not installed (${java}): ${server.neededBy} run ${server.title}, which needs Java 17+.`);
  }
  const dir = join(cacheDir, `${server.name}-${server.version}-${createHash('sha256').update(readFileSync(server.pomPath)).digest('hex').slice(0, 12)}`);
  const found = cachedClasspath(dir);
  if (found) return { java, classpath: found };
  if (spawnSync('mvn', ['-v'], { stdio: 'ignore' }).status !== 0) {
    throw new BinaryError(`${server.title} is not fetched yet and mvn is not on PATH: install Maven 3.8+ (it fetches it from Maven Central once).`);
  }
  await buildIntoCache(dir, {
    name: server.name,
    isReady: () => cachedClasspath(dir) !== undefined,
    build: async (staging) => {
      const args = ['-B', '-f', server.pomPath, 'dependency:build-classpath', '-Dmdep.includeScope=runtime', `-Dmdep.outputFile=${join(staging, 'classpath.txt')}`];
      log(`${server.name}: fetching ${server.title} with mvn ${args.join(' ')} (jars go to ~/.m2; classpath cached in ${dir})`);
      await runWithProgress('mvn', args, { name: server.name, log, counts: (line) => line.includes('Downloaded from'), unit: 'files downloaded' });
    },
  });
  const classpath = cachedClasspath(dir);
  if (!classpath) throw new BinaryError(`Fetching ${server.title} left no usable classpath in ${dir}`);
  return { java, classpath };
}
