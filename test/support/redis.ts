import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { requireRedis, type RunningRedis, startLocalRedis } from '../../stack/runtime/redis';

/** A private Redis for one test file: its own port and directory, stopped and removed after. */
export interface TestRedis {
  /** redis://127.0.0.1:<port>, without credentials (what a subscription's url holds). */
  url: string;
  password: string;
  /** Every entry of `stream` now, as its fields. */
  read: (stream: string) => Promise<Array<{ id: string; fields: Record<string, string> }>>;
  /** The names of the clients connected now (CLIENT LIST), the test's own excepted. */
  clientNames: () => Promise<string[]>;
  /** Stops the server (its append-only file stays) and starts it again on the same port, for outage tests. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/** Starts a server (installing Debian's redis-server first when this process may). */
export async function startTestRedis(): Promise<TestRedis> {
  const server = requireRedis((line) => console.log(line));
  const dataDir = mkdtempSync(join(tmpdir(), 'test-redis-'));
  const password = randomBytes(12).toString('hex');
  let running: RunningRedis | undefined = await startLocalRedis({ server, dataDir, password });
  const port = running.port;
  const connected = async () => {
    const client = createClient({ socket: { host: '127.0.0.1', port, reconnectStrategy: false }, password, name: 'test-support' });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  // A connection per call: the test's own reads never wait on a reconnect after a restart.
  const withClient = async <T>(use: (client: Awaited<ReturnType<typeof connected>>) => Promise<T>): Promise<T> => {
    const client = await connected();
    try {
      return await use(client);
    } finally {
      await client.close();
    }
  };
  return {
    url: running.url,
    password,
    read: (stream) =>
      withClient(async (client) => {
        const entries = await client.xRange(stream, '-', '+');
        return (entries ?? []).map((e) => ({ id: e.id, fields: Object.fromEntries(Object.entries(e.message).map(([k, v]) => [k, String(v)])) }));
      }),
    clientNames: () =>
      withClient(async (client) => {
        const list = await client.clientList();
        return list.map((c) => c.name).filter((n) => n !== 'test-support');
      }),
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
    start: async () => {
      running ??= await startLocalRedis({ server, dataDir, port, password });
    },
    close: async () => {
      await running?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
