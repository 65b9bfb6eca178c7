import type { Request, RequestHandler, Response } from 'express';
import type { ApiMetrics } from '../telemetry/metrics';
import { RecentOwners } from '../lib/recent-owners';
import { holdPlace } from './load-shedding';

/** What {@link ownerTurns} bounds. */
export interface OwnerTurnsOptions {
  /** Requests one owner runs at once in this process while another owner is active (API_OWNER_CONCURRENCY); 0: no bound. */
  perOwner: number;
  /** The owner of an authenticated request; undefined lets it through unbounded. */
  ownerOf: (req: Request) => string | undefined;
  /** How recently another owner must have sent a request for the bound to apply, ms. */
  contendedWithinMs?: number;
  /** Tracks `http_requests_waiting_turn`. */
  metrics?: Pick<ApiMetrics, 'requestsWaitingTurn'> | undefined;
  /** Monotonic clock in ms (tests). */
  now?: () => number;
}

interface Owner {
  running: number;
  waiting: Array<() => void>;
}

/**
 * Turns per owner in one API process: while another owner has sent a request within the last
 * `contendedWithinMs`, an owner runs at most `perOwner` requests at once and its next ones wait
 * their turn in arrival order, so one owner's flood of requests does not slow another's (the
 * machine's CPU, not the number of requests at once, bounds how fast a flood is served). An owner
 * alone is never held. A waiting request still holds its API_MAX_IN_FLIGHT place, and the
 * deadline check after this (API_MAX_WAIT) counts its wait.
 */
export function ownerTurns(opts: OwnerTurnsOptions): RequestHandler {
  const { perOwner, ownerOf, contendedWithinMs = 2000, metrics, now = () => performance.now() } = opts;
  const owners = new Map<string, Owner>();
  const recent = new RecentOwners();
  const mayStart = (id: string, owner: Owner) => owner.running < perOwner || !recent.othersSeen(id, now(), contendedWithinMs);

  const entry = (id: string) => {
    let owner = owners.get(id);
    if (!owner) owners.set(id, (owner = { running: 0, waiting: [] }));
    return owner;
  };

  // While a request holds its turn its owner's entry counts it, so the entry is the one in the map.
  const start = (id: string, res: Response, next: () => void) => {
    entry(id).running++;
    let held = true;
    let done = false;
    const release = () => {
      if (!held) return;
      held = false;
      const owner = entry(id);
      owner.running--;
      while (owner.waiting.length > 0 && mayStart(id, owner)) {
        metrics?.requestsWaitingTurn.dec();
        owner.waiting.shift()!();
      }
      if (owner.running === 0 && owner.waiting.length === 0) owners.delete(id);
    };
    // A long poll gives its turn back while it sleeps and takes it again (beyond the bound: its read is short); once answered, never.
    const retake = () => {
      if (done) return false;
      if (!held) {
        held = true;
        entry(id).running++;
      }
      return true;
    };
    const finish = () => {
      done = true;
      release();
    };
    holdPlace(res, { release, retake });
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };

  return (req, res, next) => {
    const id = perOwner > 0 ? ownerOf(req) : undefined;
    if (id === undefined) return next();
    recent.note(id, now());
    const owner = entry(id);
    if (mayStart(id, owner)) start(id, res, next);
    else {
      metrics?.requestsWaitingTurn.inc();
      owner.waiting.push(() => start(id, res, next));
    }
  };
}
