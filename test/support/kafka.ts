import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, type KafkaMessage, logLevel } from 'kafkajs';
import { loadStackConfig } from '../../stack/config/config';
import { requireKafka, type RunningKafka, startLocalKafka } from '../../stack/runtime/kafka';

/** One message read back from a topic, as a consumer sees it. */
export interface ReadMessage {
  partition: number;
  key: string | undefined;
  body: string;
  headers: Record<string, string>;
}

/** A private Kafka broker for one test file: its own ports and directory, stopped and removed after. */
export interface TestKafka {
  /** 127.0.0.1:<port>: a subscription's url is `kafka://` and this. */
  broker: string;
  user: string;
  password: string;
  /** Creates `topic` with `partitions` partitions. */
  createTopic: (topic: string, partitions?: number) => Promise<void>;
  /** Every message on `topic` now, in each partition's order. */
  read: (topic: string, expected: number) => Promise<ReadMessage[]>;
  /** Stops the broker (its data stays) and starts it again on the same ports, for outage tests. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/** Starts a broker (fetching Apache Kafka with Maven first when it is not cached). */
export async function startTestKafka(): Promise<TestKafka> {
  const install = await requireKafka(loadStackConfig().binaryCacheDir, (line) => console.log(line));
  const baseDir = mkdtempSync(join(tmpdir(), 'test-kafka-'));
  const admin = { user: 'admin', password: randomBytes(12).toString('hex') };
  const hooks = { user: 'hooks', password: randomBytes(12).toString('hex') };
  const options = { install, baseDir, admin, users: [hooks] };
  let running: RunningKafka | undefined = await startLocalKafka(options);
  const { port, controllerPort } = running;
  const client = new Kafka({
    clientId: 'test-admin',
    brokers: [running.broker],
    sasl: { mechanism: 'plain', username: admin.user, password: admin.password },
    logLevel: logLevel.NOTHING,
  });
  return {
    broker: running.broker,
    user: hooks.user,
    password: hooks.password,
    createTopic: async (topic, partitions = 3) => {
      const a = client.admin();
      await a.connect();
      try {
        await a.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
      } finally {
        await a.disconnect();
      }
    },
    read: async (topic, expected) => {
      const consumer = client.consumer({ groupId: `read-${randomBytes(6).toString('hex')}` });
      await consumer.connect();
      const got: ReadMessage[] = [];
      try {
        await consumer.subscribe({ topic, fromBeginning: true });
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`read ${got.length} of ${expected} messages from ${topic} within 30 s`)), 30_000);
          void consumer.run({
            eachMessage: ({ partition, message }: { partition: number; message: KafkaMessage }) => {
              got.push({ partition, key: message.key?.toString('utf8'), body: message.value?.toString('utf8') ?? '', headers: stringHeaders(message.headers) });
              if (got.length >= expected) {
                clearTimeout(timer);
                resolve();
              }
              return Promise.resolve();
            },
          });
        });
      } finally {
        await consumer.disconnect();
      }
      return got;
    },
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
    start: async () => {
      running ??= await startLocalKafka({ ...options, port, controllerPort });
    },
    close: async () => {
      await running?.stop();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

function stringHeaders(headers: KafkaMessage['headers']): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('utf8') : String(v)]));
}
