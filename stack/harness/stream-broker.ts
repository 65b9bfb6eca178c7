/**
 * The broker of a run's broker-destination subscription (bench and chaos run): a private Redis on
 * a free loopback port, its data in the run's DATA_DIR, a password, and every write fsynced before
 * Redis answers, so a SIGKILL keeps every entry it acknowledged. Found on PATH or in Debian's
 * place, installed with apt-get when this process may (as `npm test`'s pretest does).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { requireRedis, type RunningRedis, startLocalRedis } from '../runtime/redis';
import type { Cleanup } from './stack';
import type { RedisStreamSource } from './stream-consumer';

/** The running broker: where its stream is, and how to kill and start it again (same port and data). */
export interface StreamBroker extends RedisStreamSource {
  /** redis-server's process id while it runs (CPU accounting). */
  pid(): number | undefined;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data, and waits until it answers. */
  start(): Promise<void>;
}

/** Starts the broker in `dataDir`/redis; the cleanups stop it. */
export async function startStreamBroker(dataDir: string, cleanups: Cleanup[], log: (line: string) => void, stream = 'webhooks:orders'): Promise<StreamBroker> {
  const server = requireRedis(log);
  const dir = join(dataDir, 'redis');
  const password = randomBytes(16).toString('hex');
  let running: RunningRedis | undefined = await startLocalRedis({ server, dataDir: dir, password });
  const { port, url } = running;
  cleanups.push({ name: 'redis-server', fn: () => running?.stop() });
  return {
    url,
    password,
    stream,
    pid: () => running?.pid,
    async kill() {
      await running?.kill();
      running = undefined;
    },
    async start() {
      running ??= await startLocalRedis({ server, dataDir: dir, port, password });
    },
  };
}
