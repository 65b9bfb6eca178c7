import type { Request, RequestHandler } from 'express';
import { canonicalIp } from '../lib/ip';
import type { ApiMetrics } from '../telemetry/metrics';
import { labelShed } from './metrics';
import { problem, sendProblem } from './problem';

/** What {@link bodyAdmission} bounds. */
export interface BodyAdmissionOptions {
  /** Longest a body may take to arrive after its headers (API_BODY_TIMEOUT), ms; past it 408 and the connection is closed. */
  timeoutMs: number;
  /** Most bodies one client address may be sending at once (API_MAX_BODIES_PER_PEER); beyond it 429 at once; 0: no bound. */
  maxPerPeer: number;
  /** Counts refusals into `http_requests_shed_total{reason="peer_bodies"|"body_timeout"}`. */
  metrics?: ApiMetrics | undefined;
}

/** The middleware and the live count of bodies still arriving (tests, diagnostics). */
export interface BodyAdmission {
  /** Before the body parser: bounds each peer's unfinished bodies and how long any body may take. */
  admit: RequestHandler;
  /** Bodies announced and not yet all received, over every peer. */
  arriving(): number;
}

/** True when the request announces a body (a length above 0, or chunked). */
function announcesBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return !Number.isFinite(length) || length > 0;
}

/**
 * The peer a connection's address counts against: the IPv4 address, or the /64 of an IPv6 one,
 * since one host commonly holds a whole /64 and could otherwise spread its bodies over it.
 */
export function peerOf(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined) return 'unknown';
  const address = canonicalIp(remoteAddress) ?? remoteAddress;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * Admission of request bodies, before anything reads them: a client that announces a body and
 * sends it slowly holds only its own connection, never a place in flight (load shedding counts a
 * request once its body is read). A body still arriving after `timeoutMs` gets 408 and its
 * connection is closed; one address sending more than `maxPerPeer` bodies at once gets 429 for
 * the excess at once, so slow senders cannot pile up connections either.
 */
export function bodyAdmission(opts: BodyAdmissionOptions): BodyAdmission {
  const { timeoutMs, maxPerPeer, metrics } = opts;
  const perPeer = new Map<string, number>();
  let arriving = 0;

  const admit: RequestHandler = (req, res, next) => {
    if (!announcesBody(req) || req.complete) return next();
    const peer = peerOf(req.socket.remoteAddress);
    const held = perPeer.get(peer) ?? 0;
    if (maxPerPeer > 0 && held >= maxPerPeer) {
      metrics?.requestsShed.inc({ reason: 'peer_bodies' });
      labelShed(req);
      // The unread body is not worth draining: the connection ends with this answer.
      res.setHeader('Connection', 'close');
      res.setHeader('Retry-After', '1');
      sendProblem(res, {
        ...problem(429, 'Too Many Requests', `This client address is already sending ${maxPerPeer} request bodies at once (API_MAX_BODIES_PER_PEER); nothing was done. Finish those first.`),
        instance: req.originalUrl,
      });
      return;
    }
    perPeer.set(peer, held + 1);
    arriving++;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      arriving--;
      const left = (perPeer.get(peer) ?? 1) - 1;
      if (left > 0) perPeer.set(peer, left);
      else perPeer.delete(peer);
    };
    const timer = setTimeout(() => {
      settle();
      if (req.complete || res.headersSent) return;
      metrics?.requestsShed.inc({ reason: 'body_timeout' });
      labelShed(req);
      res.setHeader('Connection', 'close');
      sendProblem(res, {
        ...problem(408, 'Request Timeout', `The request body did not arrive within ${timeoutMs} ms of its headers (API_BODY_TIMEOUT); nothing was done.`, [
          { path: '/body', message: `must arrive within ${timeoutMs} ms` },
        ]),
        instance: req.originalUrl,
      });
    }, timeoutMs);
    timer.unref();
    req.once('end', settle);
    res.once('close', settle);
    next();
  };

  return { admit, arriving: () => arriving };
}
