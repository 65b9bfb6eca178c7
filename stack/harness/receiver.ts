/**
 * The webhook receiver of the bench, the soak and the chaos run, its own process (forked by stack/harness/receiver-client.ts) so that
 * arrival times are not delayed by the load generator's event loop and its CPU is not the service's.
 * It answers POST /hook/<tag> with 200 (or as told: one status for all, no answer or a late one to some tags),
 * records per (webhook-id, tag) when the request's headers were parsed (≈ first byte on loopback)
 * in epoch ms comparable across processes, and verifies every `sampleEvery`-th signature. Told to
 * `consume` a Redis stream, it records the stream's entries under their tag alike, each at the
 * time the server added it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '../../src/receiver/verify';
import type { ReceiverReply, ReceiverRequest } from './receiver-protocol';
import { consumeRedisStream, entryTime } from './stream-consumer';

const secrets = new Map<string, string>();
let sampleEvery = 10;
/** What `reset` clears: arrivals by `<event id>|<tag>` (first time, count, order id, ordering) and the tallies. */
const fresh = () => ({
  arrivals: new Map<string, { t: number; n: number; orderId?: number; key?: string; event?: string; previousStatus?: string }>(),
  /** Unique arrivals per tag. */
  byTag: {} as Record<string, number>,
  expected: undefined as Set<string> | undefined,
  seenExpected: 0,
  total: 0,
  duplicates: 0,
  verified: 0,
  badSignatures: [] as string[],
  malformed: 0,
});
let s = fresh();

// How POSTs are answered (see the `answer` request); held responses are dropped when it changes.
let answerStatus = 200;
let hang = new Set<string>();
let delayMs = new Map<string, number>();
const held: http.ServerResponse[] = [];
/** Kept so that `up` after `down` listens on the same address again. */
let port = 0;

const server = http.createServer((req, res) => {
  const t = performance.timeOrigin + performance.now();
  const tag = req.url?.startsWith('/hook/') ? req.url.slice('/hook/'.length) : undefined;
  const eventId = req.headers['webhook-id'];
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || !tag || typeof eventId !== 'string') {
      s.malformed++;
      res.writeHead(400).end();
      return;
    }
    if (hang.has(tag)) return void held.push(res);
    if (answerStatus !== 200) return void res.writeHead(answerStatus, { 'Retry-After': '1' }).end();
    record(tag, eventId, t, Buffer.concat(chunks), req.headers);
    const ok = () => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '2' }).end('{}');
    const delay = delayMs.get(tag);
    if (delay) setTimeout(ok, delay);
    else ok();
  });
});

/** Counts one delivery of `eventId` to `tag` received at `t`, and verifies its signature when it is the sample's turn. */
function record(tag: string, eventId: string, t: number, body: Buffer | string, headers: http.IncomingHttpHeaders | Record<string, string>): void {
  s.total++;
  const key = `${eventId}|${tag}`;
  const seen = s.arrivals.get(key);
  if (seen) {
    seen.n++;
    s.duplicates++;
  } else {
    const orderingKey = headers['webhook-ordering-key'];
    s.arrivals.set(key, { t, n: 1, ...orderOf(body, typeof orderingKey === 'string' ? orderingKey : undefined) });
    s.byTag[tag] = (s.byTag[tag] ?? 0) + 1;
    if (s.expected?.has(eventId)) s.seenExpected++;
  }
  const secret = secrets.get(tag);
  if (secret && (s.total % sampleEvery === 1 || sampleEvery === 1)) {
    try {
      verify(body, headers, secret);
      s.verified++;
    } catch (err) {
      if (s.badSignatures.length < 20) s.badSignatures.push(`${key}: ${(err as Error).message}`);
    }
  }
}

/**
 * The envelope's `data.order_id`, if it parses and has one (the soak matches arrivals to orders by
 * it); for an ordered delivery (`orderingKey` set) also its type and `previous_status`, which
 * place it among its key's events (the chaos run checks their arrival order).
 */
function orderOf(body: Buffer | string, orderingKey: string | undefined): { orderId?: number; key?: string; event?: string; previousStatus?: string } {
  try {
    const envelope = JSON.parse(body.toString()) as { event?: unknown; data?: { order_id?: unknown; previous_status?: unknown } };
    const id = envelope.data?.order_id;
    const out: { orderId?: number; key?: string; event?: string; previousStatus?: string } = typeof id === 'number' ? { orderId: id } : {};
    if (orderingKey === undefined) return out;
    out.key = orderingKey;
    if (typeof envelope.event === 'string') out.event = envelope.event;
    if (typeof envelope.data?.previous_status === 'string') out.previousStatus = envelope.data.previous_status;
    return out;
  } catch {
    return orderingKey === undefined ? {} : { key: orderingKey };
  }
}

/** The stream consumers `consume` started, stopped with the process's `stop`. */
const consumers: Array<{ stop: () => Promise<void> }> = [];

const reply = (msg: ReceiverReply) => process.send?.(msg);

process.on('message', (msg: ReceiverRequest) => {
  const ok = () => reply({ type: 'ok', id: msg.id });
  switch (msg.type) {
    case 'configure':
      for (const [tag, secret] of Object.entries(msg.secrets)) secrets.set(tag, secret);
      sampleEvery = Math.max(1, msg.sampleEvery);
      return ok();
    case 'answer':
      answerStatus = msg.status;
      hang = new Set(msg.hang);
      delayMs = new Map(Object.entries(msg.delayMs ?? {}));
      for (const res of held.splice(0)) res.destroy();
      return ok();
    case 'reset':
      s = fresh();
      return ok();
    case 'expect':
      s.expected = new Set(msg.eventIds);
      s.seenExpected = [...s.arrivals.keys()].filter((k) => s.expected!.has(k.slice(0, k.indexOf('|')))).length;
      return ok();
    case 'progress':
      return reply({ type: 'progress', id: msg.id, unique: s.arrivals.size, seenExpected: s.seenExpected, total: s.total, duplicates: s.duplicates, byTag: s.byTag });
    case 'dump': {
      const arrivals = [...s.arrivals]
        .filter(([, a]) => msg.since === undefined || a.t >= msg.since)
        .map(([k, a]) => ({ eventId: k.slice(0, k.indexOf('|')), tag: k.slice(k.indexOf('|') + 1), ...a }));
      const { total, duplicates, verified, badSignatures, malformed } = s;
      return reply({ type: 'dump', id: msg.id, arrivals, total, duplicates, verified, badSignatures, malformed });
    }
    case 'consume':
      // An entry's fields are the POST's headers, and `body` its body (docs/destinations.md, Redis Streams).
      consumers.push(
        consumeRedisStream(msg.redis, ({ id, fields }) => {
          const { body, ...headers } = fields;
          const eventId = headers['webhook-id'];
          if (body === undefined || eventId === undefined) s.malformed++;
          else record(msg.tag, eventId, entryTime(id), body, headers);
        }),
      );
      return ok();
    case 'down':
    case 'stop':
      if (msg.type === 'stop') for (const c of consumers.splice(0)) void c.stop();
      for (const res of held.splice(0)) res.destroy();
      server.close();
      server.closeAllConnections();
      ok();
      if (msg.type === 'stop') process.disconnect?.();
      return;
    case 'up':
      server.listen(port, '127.0.0.1', ok);
      return;
  }
});

// The bench going away (crash, SIGKILL) closes the IPC channel: never outlive it.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  port = (server.address() as AddressInfo).port;
  reply({ type: 'listening', id: 0, port });
});
