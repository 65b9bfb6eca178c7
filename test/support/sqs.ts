import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { loadStackConfig } from '../../stack/config/config';
import { ELASTICMQ_REGION, requireElasticmq, type RunningElasticmq, startLocalElasticmq } from '../../stack/runtime/elasticmq';

/** One message read off a queue, as a consumer sees it. */
export interface ReadSqsMessage {
  body: string;
  /** The String message attributes, name → value. */
  attributes: Record<string, string>;
  groupId: string | undefined;
  deduplicationId: string | undefined;
}

/** A private ElasticMQ for one test file: its own port and directory, stopped and removed after. */
export interface TestSqs {
  region: string;
  /** Any pair does: ElasticMQ checks no signature. */
  accessKeyId: string;
  secretAccessKey: string;
  /** The queue URL of one of the queues it was started with. */
  queueUrl: (name: string) => string;
  /** Receives (and deletes) messages of `queue` until `expected` came or 30 s passed. */
  read: (queue: string, expected: number) => Promise<ReadSqsMessage[]>;
  /** Stops the server (its messages database stays) and starts it again on the same port, for outage tests. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/** Starts ElasticMQ with `queues` declared (fetching it with Maven first when it is not cached). */
export async function startTestSqs(queues: readonly string[]): Promise<TestSqs> {
  const install = await requireElasticmq(loadStackConfig().binaryCacheDir, (line) => console.log(line));
  const baseDir = mkdtempSync(join(tmpdir(), 'test-elasticmq-'));
  let running: RunningElasticmq | undefined = await startLocalElasticmq({ install, baseDir, queues });
  const { port, endpoint, queueUrl } = running;
  const credentials = { accessKeyId: 'AKIDTESTSQS0000000000', secretAccessKey: 'test-secret-access-key-never-checked' };
  return {
    region: ELASTICMQ_REGION,
    ...credentials,
    queueUrl,
    read: async (queue, expected) => {
      // A client per read: the test's own reads never reuse a socket from before a restart.
      const client = new SQSClient({ region: ELASTICMQ_REGION, endpoint, credentials, maxAttempts: 1 });
      const got: ReadSqsMessage[] = [];
      const deadline = Date.now() + 30_000;
      try {
        while (got.length < expected && Date.now() < deadline) {
          const res = await client.send(
            new ReceiveMessageCommand({ QueueUrl: queueUrl(queue), MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['MessageGroupId', 'MessageDeduplicationId'] }),
          );
          const messages = res.Messages ?? [];
          for (const m of messages) {
            got.push({
              body: m.Body ?? '',
              attributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue ?? ''])),
              groupId: m.Attributes?.MessageGroupId,
              deduplicationId: m.Attributes?.MessageDeduplicationId,
            });
          }
          if (messages.length) await client.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl(queue), Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
        }
      } finally {
        client.destroy();
      }
      return got;
    },
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
    start: async () => {
      running ??= await startLocalElasticmq({ install, baseDir, port, queues });
    },
    close: async () => {
      await running?.stop();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
