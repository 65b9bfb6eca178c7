import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp, { type ChannelModel, type GetMessage } from 'amqplib';
import { requireRabbit, type RunningRabbit, startLocalRabbit } from '../../stack/runtime/rabbitmq';

/** A private RabbitMQ for one test file: its own ports and directory, stopped and removed after. */
export interface TestRabbit {
  /** amqp://127.0.0.1:<port>, without credentials (what a subscription's url holds). */
  url: string;
  user: string;
  password: string;
  /** An admin connection for the test's own exchanges, queues and reads. */
  admin: () => Promise<ChannelModel>;
  /** Stops the broker (its data stays) and starts it again on the same port, for outage tests. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/** Starts a broker (installing Debian's rabbitmq-server first when this process may). */
export async function startTestRabbit(): Promise<TestRabbit> {
  const install = requireRabbit((line) => console.log(line));
  const baseDir = mkdtempSync(join(tmpdir(), 'test-rabbit-'));
  const user = 'hooks';
  const password = randomBytes(12).toString('hex');
  let running: RunningRabbit | undefined = await startLocalRabbit({ install, baseDir, user, password });
  const port = running.port;
  const admins: ChannelModel[] = [];
  return {
    url: running.url,
    user,
    password,
    admin: async () => {
      const c = await amqp.connect({ hostname: '127.0.0.1', port, username: user, password });
      c.on('error', () => undefined);
      admins.push(c);
      return c;
    },
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
    start: async () => {
      running ??= await startLocalRabbit({ install, baseDir, port, user, password });
    },
    close: async () => {
      await Promise.all(admins.map((c) => c.close().catch(() => undefined)));
      await running?.stop();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

/** Every message on `queue` now (acknowledged), as body text and string headers. */
export async function drain(admin: ChannelModel, queue: string): Promise<Array<{ body: string; headers: Record<string, string>; message: GetMessage }>> {
  const channel = await admin.createChannel();
  const out = [];
  for (;;) {
    const msg = await channel.get(queue, { noAck: true });
    if (!msg) break;
    const headers = Object.fromEntries(Object.entries(msg.properties.headers ?? {}).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('utf8') : String(v)]));
    out.push({ body: msg.content.toString('utf8'), headers, message: msg });
  }
  await channel.close();
  return out;
}
