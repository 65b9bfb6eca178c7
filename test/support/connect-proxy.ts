import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** One CONNECT the proxy saw: the target as asked for, and the Proxy-Authorization sent with it. */
export interface SeenConnect {
  target: string;
  proxyAuthorization: string | undefined;
}

/** A real HTTP CONNECT proxy on loopback that records every tunnel it was asked for. */
export interface TestProxy {
  url: string;
  port: number;
  connects: SeenConnect[];
  /** Requests that were not CONNECT (absolute-form and the like), refused with 405. */
  refused: string[];
  close(): Promise<void>;
}

/** Starts a minimal CONNECT proxy (node:net): it opens a TCP tunnel to whatever host:port is asked for. */
export async function startConnectProxy(): Promise<TestProxy> {
  const connects: SeenConnect[] = [];
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      client.off('data', onData);
      const lines = head.subarray(0, end).toString('latin1').split('\r\n');
      const [method, target] = (lines[0] ?? '').split(' ');
      if (method !== 'CONNECT' || !target) {
        refused.push(lines[0] ?? '');
        client.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      const auth = lines.find((l) => l.toLowerCase().startsWith('proxy-authorization:'));
      connects.push({ target, proxyAuthorization: auth?.slice(auth.indexOf(':') + 1).trim() });
      const colon = target.lastIndexOf(':');
      const host = target.slice(0, colon).replace(/^\[|\]$/g, '');
      const upstream = connect({ host, port: Number(target.slice(colon + 1)) });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = head.subarray(end + 4);
        if (rest.length) upstream.write(rest);
        client.pipe(upstream).pipe(client);
      });
      upstream.on('error', () => {
        if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      });
    };
    client.on('data', onData);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
