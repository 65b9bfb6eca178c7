import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type JavaInstall, pomProperty, requireMavenServer } from './maven';
import { getFreePort } from './ports';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

const pomPath = join(dirname(fileURLToPath(import.meta.url)), 'elasticmq-server', 'pom.xml');

/** org.elasticmq:elasticmq-server_2.13 version pinned in stack/runtime/elasticmq-server/pom.xml. */
export const elasticmqVersion = pomProperty(pomPath, 'elasticmq.version');

/** The account id in every queue URL of a local server. */
export const ELASTICMQ_ACCOUNT = '000000000000';

/** The region a local server names in its queues' ARNs (it checks no signature, so any region is accepted). */
export const ELASTICMQ_REGION = 'eu-west-1';

/**
 * Finds ElasticMQ (an SQS-compatible server on the JVM) in `cacheDir`, or resolves it from Maven
 * Central first, as the Kafka broker is; fails naming the fix when Java or Maven is missing.
 */
export function requireElasticmq(cacheDir: string, log: (line: string) => void): Promise<JavaInstall> {
  return requireMavenServer({ name: 'elasticmq', version: elasticmqVersion, title: `ElasticMQ ${elasticmqVersion}`, neededBy: 'the SQS destination tests', pomPath }, cacheDir, log);
}

export interface LocalElasticmqOptions {
  install: JavaInstall;
  /** Its own directory: config and the messages database. Reused by a restart. */
  baseDir: string;
  /** Port on 127.0.0.1; a free one unless given (a restart passes the first's). */
  port?: number;
  /** Queues that exist from the start, declared in the config (a name ending in `.fifo` is a FIFO queue). */
  queues: readonly string[];
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningElasticmq {
  /** http://127.0.0.1:<port>, the SQS endpoint. */
  endpoint: string;
  port: number;
  /** The queue URL of `name`, as SQS names it. */
  queueUrl: (name: string) => string;
  stop: () => Promise<void>;
  /** Kills the server at once, as a crash would. */
  kill: () => Promise<void>;
}

/**
 * Starts a private ElasticMQ on loopback: the SQS API on its own port (its statistics server off,
 * so parallel test files never meet on a port), SQS's strict limits, the queues of `opts.queues`
 * declared in the config and every message kept in an H2 database under `baseDir`, so a restart
 * on the same directory has the queues and the messages it acknowledged.
 */
export async function startLocalElasticmq(opts: LocalElasticmqOptions): Promise<RunningElasticmq> {
  const port = opts.port ?? (await getFreePort());
  mkdirSync(opts.baseDir, { recursive: true });
  const queues = opts.queues.map((name) => `  "${name}" { fifo = ${name.endsWith('.fifo')}, contentBasedDeduplication = false }`);
  const config = join(opts.baseDir, 'elasticmq.conf');
  writeFileSync(
    config,
    [
      'include classpath("application.conf")',
      `node-address { protocol = http, host = "127.0.0.1", port = ${port}, context-path = "" }`,
      `rest-sqs { enabled = true, bind-port = ${port}, bind-hostname = "127.0.0.1", sqs-limits = strict }`,
      'rest-stats { enabled = false }',
      'generate-node-address = false',
      `aws { region = "${ELASTICMQ_REGION}", accountId = "${ELASTICMQ_ACCOUNT}" }`,
      `queues {\n${queues.join('\n')}\n}`,
      // Messages on disk (H2): a stop and start keeps what the server answered with a MessageId.
      `messages-storage { enabled = true, uri = "jdbc:h2:${join(opts.baseDir, 'messages')}" }`,
    ].join('\n') + '\n',
  );
  const logback = join(opts.baseDir, 'logback.xml');
  writeFileSync(
    logback,
    '<configuration><appender name="OUT" class="ch.qos.logback.core.ConsoleAppender"><encoder><pattern>%level %msg (%logger)%n</pattern></encoder></appender><root level="WARN"><appender-ref ref="OUT"/></root></configuration>\n',
  );
  const server = new ManagedProcess({
    name: 'elasticmq',
    command: opts.install.java,
    // A small heap and the quick JIT tier: a test server starts in seconds and carries little.
    args: ['-Xms64m', '-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', `-Dconfig.file=${config}`, `-Dlogback.configurationFile=${logback}`, '-cp', opts.install.classpath, 'org.elasticmq.server.Main'],
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const urls: string[] = [];
  try {
    await waitUntilReady(server, () => listsQueues(endpoint, opts.queues, urls), opts.readyTimeoutMs ?? 60_000);
  } catch (err) {
    await server.kill();
    throw err;
  }
  // The server's own URL for a queue it lists; the same form for one it does not have.
  const queueUrl = (name: string) => urls.find((u) => u.endsWith(`/${name}`)) ?? `${endpoint}/${ELASTICMQ_ACCOUNT}/${name}`;
  return { endpoint, port, queueUrl, stop: () => server.stop(), kill: () => server.kill() };
}

/** Whether the server answers an SQS ListQueues (JSON protocol, which it does not ask to be signed) with every queue of `expected`; their URLs go into `urls`. */
async function listsQueues(endpoint: string, expected: readonly string[], urls: string[]): Promise<boolean | string> {
  const res = await fetch(`${endpoint}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.ListQueues' },
    body: '{}',
    signal: AbortSignal.timeout(2000),
  });
  const text = await res.text();
  if (!res.ok) return `ListQueues answered ${res.status}: ${text.slice(0, 200)}`;
  const listed = (JSON.parse(text) as { QueueUrls?: string[] }).QueueUrls ?? [];
  const missing = expected.filter((name) => !listed.some((u) => u.endsWith(`/${name}`)));
  if (missing.length > 0) return `queues not there yet: ${missing.join(', ')}`;
  urls.push(...listed);
  return true;
}
