import { request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApi, type ApiProcess } from '../../../src/compose/api';
import { loadConfig } from '../../../src/config/config';
import { createLogger } from '../../../src/logger';
import { getFreePort } from '../../../stack/runtime/ports';
import { startTestApi, type TestApi } from '../../support/api';
import { sharedApiEnv } from '../../support/api-process';
import { waitFor } from '../../support/wait';

/** A raw loopback connection from `localAddress` that sends nothing, as a client trickling headers would. */
interface IdleClient {
  socket: Socket;
  closed(): boolean;
}

function idleClient(port: number, localAddress: string): IdleClient {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  let closed = false;
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  return { socket, closed: () => closed };
}

/** One request on a connection of its own from `localAddress`, closed after the answer; undefined when the connection was closed unanswered. */
function getFrom(base: string, localAddress: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | undefined> {
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { localAddress, agent: false, headers: { connection: 'close', ...headers }, timeout: 10_000 });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

const openConnections = (server: Server) => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

function shedCount(metricsText: string, reason: string): number {
  const line = metricsText.split('\n').find((l) => l.startsWith(`http_requests_shed_total{reason="${reason}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

// The real API composition (as `npm run api` builds it) in this process, with small connection bounds.
describe('open connections are bounded per client address and in all', () => {
  const perPeer = 4;
  const total = 8;
  let api: TestApi;
  let proc: ApiProcess;
  let server: Server;
  let base: string;
  let key: string;
  const clients: IdleClient[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    key = (await api.clientWith(['webhooks:read'])).key;
    const port = await getFreePort();
    const config = loadConfig({
      ...sharedApiEnv(api, port),
      SEED_DEMO_DATA: 'false',
      METRICS_ENABLED: 'true',
      API_MAX_CONNECTIONS_PER_PEER: String(perPeer),
      API_MAX_CONNECTIONS: String(total),
    });
    proc = await composeApi(config, createLogger('silent', 'test'));
    server = await proc.listen();
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.socket.destroy();
    await proc?.stop();
    await api?.close();
  });

  it('closes one address\'s excess connections at once and keeps serving other addresses, then the process\'s excess over all', async () => {
    const port = Number(new URL(base).port);
    const excess = 3;
    const first = Array.from({ length: perPeer + excess }, () => idleClient(port, '127.0.0.1'));
    clients.push(...first);
    // The excess is closed by the server at once, long before any header deadline.
    await waitFor(() => first.filter((c) => c.closed()).length === excess, 5_000, 20);
    expect(await openConnections(server)).toBe(perPeer);

    // Another address is served meanwhile.
    const other = await getFrom(base, '127.0.0.2', '/api/webhooks/v1/subscriptions', { authorization: `Bearer ${key}` });
    expect(other?.status, other?.body).toBe(200);
    // A held connection is a working one.
    const held = first.find((c) => !c.closed())!;
    const answer = new Promise<string>((resolve) => {
      let text = '';
      held.socket.setEncoding('latin1');
      held.socket.on('data', (chunk: string) => (text += chunk));
      held.socket.on('close', () => resolve(text));
    });
    held.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    await waitFor(async () => (await openConnections(server)) === perPeer - 1, 5_000, 20);

    // Over all addresses: 3 held from 127.0.0.1, 4 from each of two more, against a bound of 8 in all.
    const more = [...Array.from({ length: perPeer }, () => idleClient(port, '127.0.0.3')), ...Array.from({ length: perPeer }, () => idleClient(port, '127.0.0.4'))];
    clients.push(...more);
    const refused = perPeer - 1 + 2 * perPeer - total;
    await waitFor(() => more.filter((c) => c.closed()).length === refused, 5_000, 20);
    expect(await openConnections(server)).toBe(total);

    // Once they go, 127.0.0.1 is served again, and every refusal was counted.
    for (const c of clients) c.socket.destroy();
    await waitFor(async () => (await openConnections(server)) === 0, 5_000, 20);
    const metrics = await getFrom(base, '127.0.0.1', '/metrics');
    expect(metrics?.status).toBe(200);
    expect(shedCount(metrics?.body ?? '', 'peer_connections')).toBe(excess);
    expect(shedCount(metrics?.body ?? '', 'max_connections')).toBe(refused);
  });
});
