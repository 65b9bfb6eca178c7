import type { Request, RequestHandler, Response } from 'express';
import type { ApiMetrics } from '../telemetry/metrics';
import { labelShed } from './metrics';
import { problem, sendProblem } from './problem';

/**
 * Why a request was not served: over the bound, its client already gone, it waited past the
 * deadline, its address already sends too many bodies, or its body did not arrive in time.
 */
export type ShedReason = 'in_flight' | 'client_gone' | 'deadline' | 'peer_bodies' | 'body_timeout';

/** What {@link loadShedding} bounds and where it counts. */
export interface LoadSheddingOptions {
  /** Most requests this process serves at once (API_MAX_IN_FLIGHT); 0: no bound. */
  maxInFlight: number;
  /** Longest a request may take from its body read to its handler starting (API_MAX_WAIT), ms; 0: no deadline. */
  maxWaitMs?: number;
  /** Seconds sent in `Retry-After` on a 503. */
  retryAfterSeconds?: number;
  /** Counts shed requests into `http_requests_shed_total{reason}` and tracks `http_requests_in_flight`. */
  metrics?: ApiMetrics | undefined;
  /** How long in flight must stay at its bound before {@link LoadShedding.saturated} says so, ms. */
  saturatedAfterMs?: number;
  /** Monotonic clock in ms (tests). */
  now?: () => number;
}

/** The two middlewares of load shedding and the live count of requests in flight. */
export interface LoadShedding {
  /** Right after the body parser: refuses requests beyond the bound with 503 before the key or the database are touched. */
  admit: RequestHandler;
  /**
   * Before authentication and again before the handler: a request whose client has gone does
   * nothing more, and one that waited past the deadline gets 503.
   */
  stillWanted: RequestHandler;
  /** Requests admitted and not yet answered (or abandoned). */
  inFlight(): number;
  /** True when in flight has stayed at its bound for `saturatedAfterMs` or more: this process cannot take more work. */
  saturated(): boolean;
}

// Probes, scrapes, the contract, its rendering and the portal page must answer when the API is busiest.
const exemptPaths = new Set(['/healthz', '/readyz', '/metrics', '/docs', '/openapi.json', '/portal']);
const exemptPrefixes = ['/docs/assets/', '/portal/assets/'];

/** True for the paths load shedding never refuses: probes, `/metrics`, `/docs`, `/openapi.json`, `/portal` and their assets. */
export function isExemptFromShedding(path: string): boolean {
  return exemptPaths.has(path) || exemptPrefixes.some((prefix) => path.startsWith(prefix));
}

/** True when the client closed its connection: nobody will read the answer. */
export function clientGone(req: Request, res: Response): boolean {
  return res.destroyed || req.socket.destroyed;
}

const arrivals = new WeakMap<Request, number>();

/** How a request gives a place it holds back before it answers, and takes one again (false when none is free). */
export interface Place {
  release: () => void;
  retake: () => boolean;
}
const places = new WeakMap<Response, Place[]>();

/** Registers a place the request behind `res` holds (its admission, its owner's turn), for {@link yieldPlace}. */
export function holdPlace(res: Response, place: Place): void {
  const held = places.get(res);
  if (held) held.push(place);
  else places.set(res, [place]);
}

/**
 * Gives the request's places back while it only waits (a long poll's sleep), so idle listeners
 * never crowd out work; the returned function takes them again before its next read, false
 * when one is not free (then it should answer what it has).
 */
export function yieldPlace(res: Response): () => boolean {
  const held = places.get(res) ?? [];
  for (const place of held) place.release();
  return () => {
    const retaken: Place[] = [];
    for (const place of held) {
      if (!place.retake()) {
        for (const r of retaken) r.release();
        return false;
      }
      retaken.push(place);
    }
    return true;
  };
}

/**
 * Load shedding for one API process: beyond `maxInFlight` requests at once, an immediate 503
 * problem+json with `Retry-After`, before the key is looked up or anything written, so overload
 * costs the refused requests almost nothing and the admitted ones finish while their clients
 * still wait. A request counts once its body is read: a slow sender holds no place (see
 * `bodyAdmission` for what bounds those). Exempt paths are neither refused nor counted.
 */
export function loadShedding(opts: LoadSheddingOptions): LoadShedding {
  const { maxInFlight, maxWaitMs = 0, retryAfterSeconds = 1, saturatedAfterMs = 1000, metrics, now = () => performance.now() } = opts;
  let inFlight = 0;
  // Since when every place has been taken; undefined while one is free.
  let fullSince: number | undefined;

  const refuse = (req: Request, res: Response, reason: 'in_flight' | 'deadline', detail: string) => {
    metrics?.requestsShed.inc({ reason });
    labelShed(req);
    res.setHeader('Retry-After', String(retryAfterSeconds));
    sendProblem(res, { ...problem(503, 'Service Overloaded', detail), instance: req.originalUrl });
  };
  // Nobody reads an answer: close the connection and do nothing more for it.
  const drop = (res: Response) => {
    metrics?.requestsShed.inc({ reason: 'client_gone' });
    res.destroy();
  };

  const admit: RequestHandler = (req, res, next) => {
    if (isExemptFromShedding(req.path)) return next();
    if (clientGone(req, res)) return drop(res);
    if (maxInFlight > 0 && inFlight >= maxInFlight) {
      refuse(req, res, 'in_flight', `This API process already serves its limit of ${maxInFlight} requests at once (API_MAX_IN_FLIGHT); nothing was done. Retry after ${retryAfterSeconds} s.`);
      return;
    }
    arrivals.set(req, now());
    inFlight++;
    if (maxInFlight > 0 && inFlight >= maxInFlight) fullSince ??= now();
    metrics?.requestsInFlight.inc();
    let held = true;
    let done = false;
    const release = () => {
      if (!held) return;
      held = false;
      inFlight--;
      if (inFlight < maxInFlight) fullSince = undefined;
      metrics?.requestsInFlight.dec();
    };
    const retake = () => {
      if (held) return true;
      if (done || (maxInFlight > 0 && inFlight >= maxInFlight)) return false;
      held = true;
      inFlight++;
      if (maxInFlight > 0 && inFlight >= maxInFlight) fullSince ??= now();
      metrics?.requestsInFlight.inc();
      return true;
    };
    const finish = () => {
      done = true;
      release();
    };
    // The place is free once the answer is written: a client that stops reading holds only its socket (closed by the server's idle timeout).
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      finish();
      return end(...args);
    }) as Response['end'];
    // 'close' comes once whether the answer was sent or the client went away first.
    res.once('close', finish);
    holdPlace(res, { release, retake });
    next();
  };

  const stillWanted: RequestHandler = (req, res, next) => {
    const arrived = arrivals.get(req);
    if (arrived === undefined) return next(); // exempt path
    if (clientGone(req, res)) return drop(res);
    const waited = now() - arrived;
    if (maxWaitMs > 0 && waited > maxWaitMs) {
      refuse(req, res, 'deadline', `The request waited ${Math.round(waited)} ms for its turn, longer than ${maxWaitMs} ms (API_MAX_WAIT): the API is overloaded; nothing was done. Retry after ${retryAfterSeconds} s.`);
      return;
    }
    next();
  };

  const saturated = () => fullSince !== undefined && now() - fullSince >= saturatedAfterMs;
  return { admit, stillWanted, inFlight: () => inFlight, saturated };
}
