import { createServer } from 'node:net';
import { LRUCache } from 'lru-cache';

// Ports this process handed out in the last minute: the OS may offer a closed one again while its taker has yet to bind it.
const handedOut = new LRUCache<number, true>({ max: 10_000, ttl: 60_000 });

/** Tries before giving up on a port not handed out already (the OS offers thousands). */
const TRIES = 50;

/**
 * A port the OS says is free right now and this process has not handed out before (the worker's
 * private SDK metrics exporter, tests, ephemeral servers): two servers started one after the
 * other never get the same port, even when the first has not bound it yet.
 */
export async function getFreePort(host = '127.0.0.1'): Promise<number> {
  for (let i = 0; i < TRIES; i++) {
    const port = await osFreePort(host);
    if (handedOut.has(port)) continue;
    handedOut.set(port, true);
    return port;
  }
  throw new Error(`no free port on ${host} that this process has not handed out already (${TRIES} tries)`);
}

function osFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      server.close(() => resolve(port));
    });
  });
}
