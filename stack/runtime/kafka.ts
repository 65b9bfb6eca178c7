import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type JavaInstall, pomProperty, requireMavenServer } from './maven';
import { getFreePort } from './ports';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

const pomPath = join(dirname(fileURLToPath(import.meta.url)), 'kafka-broker', 'pom.xml');

/** org.apache.kafka:kafka_2.13 version pinned in stack/runtime/kafka-broker/pom.xml. */
export const kafkaVersion = pomProperty(pomPath, 'kafka.version');

/** What starting a broker needs: `java` and the broker's classpath (jars in ~/.m2). */
export type KafkaInstall = JavaInstall;

/**
 * Finds the Apache Kafka broker in `cacheDir`, or resolves it from Maven Central first (jars
 * into ~/.m2, once per machine, as the Temporal test server's); fails naming the fix when Java
 * or Maven is missing.
 */
export function requireKafka(cacheDir: string, log: (line: string) => void): Promise<KafkaInstall> {
  return requireMavenServer({ name: 'kafka', version: kafkaVersion, title: `Apache Kafka ${kafkaVersion}`, neededBy: 'the Kafka destination tests', pomPath }, cacheDir, log);
}

/** A SASL/PLAIN user the broker accepts. */
export interface KafkaUser {
  user: string;
  password: string;
}

export interface LocalKafkaOptions {
  install: KafkaInstall;
  /** Its own directory: the log (data) directory, config, logs. Reused by a restart. */
  baseDir: string;
  /** Client port (SASL_PLAINTEXT) on 127.0.0.1; a free one unless given (a restart passes the first's). */
  port?: number;
  /** Controller port; a free one unless given. */
  controllerPort?: number;
  /** The broker's own user, a super user (admin operations, inter-broker). */
  admin: KafkaUser;
  /** Further users with PLAIN credentials. */
  users?: readonly KafkaUser[];
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningKafka {
  /** 127.0.0.1:<port>, the bootstrap broker. */
  broker: string;
  port: number;
  controllerPort: number;
  stop: () => Promise<void>;
  /** Kills the broker at once, as a crash would. */
  kill: () => Promise<void>;
}

/**
 * Starts a private single-node Kafka on loopback (KRaft, broker and controller in one JVM): SASL
 * (PLAIN) on its client port, topics never created by a produce, data under `baseDir`. The data
 * directory is stamped in place of `kafka-storage format`, which would cost a second JVM start.
 */
export async function startLocalKafka(opts: LocalKafkaOptions): Promise<RunningKafka> {
  const port = opts.port ?? (await getFreePort());
  const controllerPort = opts.controllerPort ?? (await getFreePort());
  const dataDir = join(opts.baseDir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const meta = join(dataDir, 'meta.properties');
  if (!existsSync(meta)) {
    // What `kafka-storage format` writes; without a bootstrap file the controller takes the release's metadata version.
    const id = () => randomBytes(16).toString('base64url');
    writeFileSync(meta, `version=1\nnode.id=1\ncluster.id=${id()}\ndirectory.id=${id()}\n`);
  }
  const jaas = [
    'org.apache.kafka.common.security.plain.PlainLoginModule required',
    `username="${opts.admin.user}" password="${opts.admin.password}"`,
    ...[opts.admin, ...(opts.users ?? [])].map((u) => `user_${u.user}="${u.password}"`),
  ].join(' ');
  const config = join(opts.baseDir, 'server.properties');
  writeFileSync(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=SASL_PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=SASL_PLAINTEXT://127.0.0.1:${port}`,
      'listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT',
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=SASL_PLAINTEXT',
      'sasl.enabled.mechanisms=PLAIN',
      'sasl.mechanism.inter.broker.protocol=PLAIN',
      `listener.name.sasl_plaintext.plain.sasl.jaas.config=${jaas};`,
      `log.dirs=${dataDir}`,
      'num.partitions=3',
      // A delivery names a topic that exists: a produce never creates one.
      'auto.create.topics.enable=false',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'transaction.state.log.num.partitions=1',
      'share.coordinator.state.topic.replication.factor=1',
      'share.coordinator.state.topic.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      // Every write is on disk before it is confirmed, so a killed broker loses nothing it acked.
      'log.flush.interval.messages=1',
    ].join('\n') + '\n',
  );
  const log4j = join(opts.baseDir, 'log4j2.properties');
  writeFileSync(
    log4j,
    ['rootLogger.level=WARN', 'rootLogger.appenderRef.out.ref=OUT', 'appender.out.type=Console', 'appender.out.name=OUT', 'appender.out.layout.type=PatternLayout', 'appender.out.layout.pattern=%p %m (%c)%n'].join('\n') + '\n',
  );
  const server = new ManagedProcess({
    name: 'kafka',
    command: opts.install.java,
    // A small heap and the quick JIT tier: a test broker starts in seconds and carries little.
    args: ['-Xms128m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', `-Dlog4j2.configurationFile=${log4j}`, '-cp', opts.install.classpath, 'kafka.Kafka', config],
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  try {
    await waitUntilReady(server, () => answersApiVersions(port), opts.readyTimeoutMs ?? 90_000);
  } catch (err) {
    await server.kill();
    throw err;
  }
  return { broker: `127.0.0.1:${port}`, port, controllerPort, stop: () => server.stop(), kill: () => server.kill() };
}

/** Whether the port answers a Kafka ApiVersions (v0) request, which needs no authentication. */
function answersApiVersions(port: number): Promise<boolean | string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answer: boolean | string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2000, () => done('no Kafka answer'));
    socket.once('connect', () => {
      const clientId = Buffer.from('probe');
      const body = Buffer.alloc(10 + clientId.length);
      body.writeInt16BE(18, 0); // ApiVersions
      body.writeInt16BE(0, 2);
      body.writeInt32BE(7, 4); // correlation id
      body.writeInt16BE(clientId.length, 8);
      clientId.copy(body, 10);
      const size = Buffer.alloc(4);
      size.writeInt32BE(body.length);
      socket.write(Buffer.concat([size, body]));
    });
    socket.once('data', (chunk: Buffer) => done(chunk.length >= 8 && chunk.readInt32BE(4) === 7 ? true : 'not a Kafka answer'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}
