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
  return {
    url: running.url,
    password,
    read: async (stream) => {
      // A connection per read: the test's own reads never wait on a reconnect after a restart.
      const client = createClient({ socket: { host: '127.0.0.1', port, reconnectStrategy: false }, password });
      client.on('error', () => undefined);
      await client.connect();
      try {
        const entries = await client.xRange(stream, '-', '+');
        return (entries ?? []).map((e) => ({ id: e.id, fields: Object.fromEntries(Object.entries(e.message).map(([k, v]) => [k, String(v)])) }));
      } finally {
        await client.close();
      }
    },
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
