import type { Request } from 'express';
import { TLSSocket } from 'node:tls';

/**
 * This server's own origin for the connection (`http://127.0.0.1:3000`), from the socket's local
 * address: links in answers use it when PUBLIC_URL is unset (never in production). The `Host`
 * header is never read, so a client cannot make the service hand out links to another origin.
 */
export function requestOrigin(req: Request): string {
  const socket = req.socket;
  const scheme = socket instanceof TLSSocket ? 'https' : 'http';
  const address = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const host = address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
  return `${scheme}://${host}:${socket.localPort ?? 80}`;
}
