/**
 * The bench's webhook receiver, run as its own process (forked by bench/run.ts with an IPC
 * channel) so its event loop and CPU are separate from the load generator's: arrival times
 * are not delayed by the bench process generating load, and its CPU is not counted as service CPU.
 *
 * It answers every POST to /hook/<tag> with 200 (or as told: a status for all, no answer for
 * some tags) and records, per (webhook-id, tag), the time
 * the request's headers were parsed (≈ first byte on loopback: a delivery is one small
 * packet) as epoch ms (performance.timeOrigin + performance.now(), comparable across processes
 * on this machine). Every `sampleEvery`-th delivery is verified with the receiver kit.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '../src/receiver/verify';
import type { ReceiverReply, ReceiverRequest } from './lib/receiver-protocol';

const now = () => performance.timeOrigin + performance.now();

interface Arrival {
  /** First arrival (request headers parsed), epoch ms. */
  t: number;
  /** How many times this (event, tag) arrived. */
  n: number;
  orderId?: number;
}

const secrets = new Map<string, string>();
let sampleEvery = 10;
let arrivals = new Map<string, Arrival>();
let expected: Set<string> | undefined;
let seenExpected = 0;
let total = 0;
let duplicates = 0;
let verified = 0;
let badSignatures: string[] = [];
let malformed = 0;

const key = (eventId: string, tag: string) => `${eventId}|${tag}`;

// How POSTs are answered (see the `answer` request); held responses are dropped when it changes.
let answerStatus = 200;
let hang = new Set<string>();
const held: http.ServerResponse[] = [];
/** The port it listens on, kept so that `up` after `down` reopens the same address. */
let port = 0;

const server = http.createServer((req, res) => {
  const t = now();
  const tag = req.url?.startsWith('/hook/') ? req.url.slice('/hook/'.length) : undefined;
  const idHeader = req.headers['webhook-id'];
  const eventId = typeof idHeader === 'string' ? idHeader : undefined;
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || !tag || !eventId) {
      malformed++;
      res.writeHead(400).end();
      return;
    }
    if (hang.has(tag)) {
      held.push(res);
      return;
    }
    if (answerStatus !== 200) {
      res.writeHead(answerStatus, { 'Retry-After': '1' }).end();
      return;
    }
    total++;
    const k = key(eventId, tag);
    const seen = arrivals.get(k);
    if (seen) {
      seen.n++;
      duplicates++;
    } else {
      arrivals.set(k, { t, n: 1, ...orderOf(chunks) });
      if (expected?.has(eventId)) seenExpected++;
    }
    const secret = secrets.get(tag);
    if (secret && (total % sampleEvery === 1 || sampleEvery === 1)) {
      try {
        verify(Buffer.concat(chunks), req.headers, secret);
        verified++;
      } catch (err) {
        if (badSignatures.length < 20) badSignatures.push(`${k}: ${(err as Error).message}`);
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '2' }).end('{}');
  });
});

/** The envelope's `data.order_id`, if it parses and has one. */
function orderOf(chunks: Buffer[]): { orderId?: number } {
  try {
    const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { order_id?: unknown } }).data?.order_id;
    return typeof id === 'number' ? { orderId: id } : {};
  } catch {
    return {};
  }
}

function reply(msg: ReceiverReply): void {
  process.send?.(msg);
}

process.on('message', (raw: ReceiverRequest) => {
  const msg = raw;
  switch (msg.type) {
    case 'configure':
      for (const [tag, secret] of Object.entries(msg.secrets)) secrets.set(tag, secret);
      sampleEvery = Math.max(1, msg.sampleEvery);
      reply({ type: 'ok', id: msg.id });
      break;
    case 'answer':
      answerStatus = msg.status;
      hang = new Set(msg.hang);
      for (const res of held.splice(0)) res.destroy();
      reply({ type: 'ok', id: msg.id });
      break;
    case 'reset':
      arrivals = new Map();
      expected = undefined;
      seenExpected = 0;
      total = 0;
      duplicates = 0;
      verified = 0;
      badSignatures = [];
      malformed = 0;
      reply({ type: 'ok', id: msg.id });
      break;
    case 'expect': {
      expected = new Set(msg.eventIds);
      seenExpected = 0;
      for (const k of arrivals.keys()) if (expected.has(k.slice(0, k.indexOf('|')))) seenExpected++;
      reply({ type: 'ok', id: msg.id });
      break;
    }
    case 'progress':
      reply({ type: 'progress', id: msg.id, unique: arrivals.size, seenExpected, total, duplicates });
      break;
    case 'dump':
      reply({
        type: 'dump',
        id: msg.id,
        arrivals: [...arrivals].flatMap(([k, a]) => {
          if (msg.since !== undefined && a.t < msg.since) return [];
          const bar = k.indexOf('|');
          return [{ eventId: k.slice(0, bar), tag: k.slice(bar + 1), t: a.t, n: a.n, ...(a.orderId !== undefined ? { orderId: a.orderId } : {}) }];
        }),
        total,
        duplicates,
        verified,
        badSignatures,
        malformed,
      });
      break;
    case 'down':
      for (const res of held.splice(0)) res.destroy();
      server.close();
      server.closeAllConnections();
      reply({ type: 'ok', id: msg.id });
      break;
    case 'up':
      // Same port as before, so the subscription's URL works again.
      server.listen(port, '127.0.0.1', () => reply({ type: 'ok', id: msg.id }));
      break;
    case 'stop':
      server.close();
      server.closeAllConnections();
      reply({ type: 'ok', id: msg.id });
      process.disconnect?.();
      break;
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
