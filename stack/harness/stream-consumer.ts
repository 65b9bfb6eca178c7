/**
 * A consumer of a Redis stream for the bench and the chaos run: reads the stream from its first
 * entry with `XREAD BLOCK`, hands over every entry once in stream order, and, when the server goes
 * away (the chaos run kills it), connects again and reads on after the last entry it handed over.
 */
import type { RedisClientType } from '@redis/client';

/** Where the entries are: the server (redis://host:port, no credentials), its password, the stream. */
export interface RedisStreamSource {
  url: string;
  password: string;
  stream: string;
}

/** One entry as read: its id (`<ms>-<seq>`) and its fields. */
export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}

/** When the server added the entry, epoch ms: its id's first part, the server's clock (this machine's). */
export const entryTime = (id: string): number => Number(id.slice(0, id.indexOf('-')));

/** The shape of an XREAD reply under RESP2, as @redis/client transforms it. */
type XReadReply = Array<{ name: string; messages: Array<{ id: string; message: Record<string, string> }> }> | null;

/** Starts consuming `source`; `stop` ends the loop and its connection. */
export function consumeRedisStream(source: RedisStreamSource, onEntry: (entry: StreamEntry) => void): { stop: () => Promise<void> } {
  let stopped = false;
  let lastId = '0-0';
  let client: RedisClientType | undefined;
  const url = new URL(source.url);
  const connect = async (): Promise<RedisClientType> => {
    const { createClient } = await import('@redis/client');
    const fresh = createClient({ socket: { host: url.hostname, port: Number(url.port || 6379), reconnectStrategy: false, connectTimeout: 2000 }, password: source.password }) as RedisClientType;
    // A lost connection shows as the pending read's rejection; the event must be listened to, or it would throw.
    fresh.on('error', () => undefined);
    await fresh.connect();
    return fresh;
  };
  const loop = async () => {
    while (!stopped) {
      try {
        client ??= await connect();
        const reply: XReadReply = await client.xRead({ key: source.stream, id: lastId }, { BLOCK: 1000, COUNT: 1000 });
        for (const stream of reply ?? []) {
          for (const m of stream.messages) {
            lastId = m.id;
            onEntry({ id: m.id, fields: Object.fromEntries(Object.entries(m.message).map(([k, v]) => [k, String(v)])) });
          }
        }
      } catch {
        // The server is down or restarting: connect again shortly, from the last entry read.
        client?.destroy();
        client = undefined;
        if (!stopped) await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      client?.destroy();
      await running;
    },
  };
}
