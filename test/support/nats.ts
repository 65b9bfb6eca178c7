import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { requireNats, type RunningNats, startLocalNats } from '../../stack/runtime/nats';

/** A private NATS server with JetStream for one test file: its own port and store, stopped and removed after. */
export interface TestNats {
  /** nats://127.0.0.1:<port>, without credentials (what a subscription's url holds). */
  url: string;
  user: string;
  password: string;
  /** A stream capturing `subjects`, for the test's messages. */
  addStream: (name: string, subjects: string[]) => Promise<void>;
  /** Every message in `stream` now, as body text and string headers. */
  read: (stream: string) => Promise<Array<{ body: string; headers: Record<string, string>; seq: number }>>;
  /** Stops the server (its store stays) and starts it again on the same port, for outage tests. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/** Starts a server (installing Debian's nats-server first when this process may). */
export async function startTestNats(): Promise<TestNats> {
  const server = requireNats((line) => console.log(line));
  const storeDir = mkdtempSync(join(tmpdir(), 'test-nats-'));
  const user = 'hooks';
  const password = randomBytes(12).toString('hex');
  let running: RunningNats | undefined = await startLocalNats({ server, storeDir, user, password });
  const port = running.port;
  let admin: { nc: NatsConnection; jsm: JetStreamManager } | undefined;
  // A fresh admin connection after a restart: the test's own reads never wait on a reconnect.
  const manager = async () => {
    if (!admin || admin.nc.isClosed()) {
      const nc = await connect({ servers: `127.0.0.1:${port}`, user, pass: password, reconnect: false });
      admin = { nc, jsm: await jetstreamManager(nc) };
    }
    return admin.jsm;
  };
  const closeAdmin = async () => {
    await admin?.nc.close().catch(() => undefined);
    admin = undefined;
  };
  return {
    url: running.url,
    user,
    password,
    addStream: async (name, subjects) => {
      await (await manager()).streams.add({ name, subjects });
    },
    read: async (stream) => {
      const jsm = await manager();
      const { state } = await jsm.streams.info(stream);
      const out = [];
      for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
        const m = await jsm.streams.getMessage(stream, { seq });
        if (!m) continue;
        const headers = Object.fromEntries((m.header?.keys() ?? []).map((k) => [k, m.header.get(k)]));
        out.push({ body: m.string(), headers, seq });
      }
      return out;
    },
    stop: async () => {
      await closeAdmin();
      await running?.stop();
      running = undefined;
    },
    start: async () => {
      running ??= await startLocalNats({ server, storeDir, port, user, password });
    },
    close: async () => {
      await closeAdmin();
      await running?.stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
