import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got: exact raw body and headers. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
  /** The peer's address as the receiver's socket sees it (where the delivery came from). */
  remoteAddress: string | undefined;
}

/** A real HTTP receiver on loopback whose answers a test scripts per request. */
export interface TestReceiver {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(
  respond: (req: Received, res: ServerResponse, n: number) => unknown,
): Promise<TestReceiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), remoteAddress: req.socket.remoteAddress };
      received.push(r);
      void respond(r, res, received.length);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
