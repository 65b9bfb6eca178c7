import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { canonicalIp, parseIpRange } from '../lib/ip';

/**
 * The proxies in front of a receiver and the header they name the sender in. Only set this when
 * such proxies exist: the header is whatever the client sent, so without a proxy that rewrites
 * it, anyone can claim any address.
 */
export interface TrustProxy {
  /**
   * `x-forwarded-for` (the default: a comma-separated list each proxy appends the address it
   * saw to), `forwarded` (RFC 7239, its `for=` values), or another header written the
   * X-Forwarded-For way (e.g. `x-real-ip`, one entry).
   */
  header?: string;
  /**
   * How many proxies append to it. The sender is the `hops`-th entry from the right (1: the one
   * your single proxy added); entries further left were written by the client and may be forged.
   */
  hops: number;
  /**
   * The proxies' addresses or CIDR ranges. When given, a request whose socket peer is not one of
   * them is refused: it came around the proxies and may have forged the header.
   */
  proxies?: readonly string[];
}

/** Which source addresses a receiver accepts deliveries from. */
export interface SourceOptions {
  /**
   * Addresses or CIDR ranges, IPv4 or IPv6 (e.g. the `delivery_source_addresses` of
   * `GET /api/webhooks/v1/meta`); IPv4-mapped IPv6 peers (`::ffff:127.0.0.2`) match their IPv4
   * address. Any other sender gets 403 before its body is read. Absent: any source.
   */
  allowedSources?: readonly string[];
  /** Take the sender from a proxy's header instead of the socket peer (see {@link TrustProxy}). */
  trustProxy?: TrustProxy;
}

type Matcher = (address: string) => boolean;

/** Compiles addresses and ranges into one matcher; `option` names the option in errors. */
function matcher(entries: readonly string[], option: string): Matcher {
  if (entries.length === 0) throw new TypeError(`${option} is empty: every request would be refused (leave it out to accept any source)`);
  const list = new BlockList();
  for (const entry of entries) {
    const range = parseIpRange(entry);
    if (!range) throw new TypeError(`${option}: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
    list.addSubnet(range.address, range.prefix, range.family);
  }
  return (address) => list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

/** The address in one forwarding entry: `1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:443`, `2001:db8::1`. */
function entryAddress(entry: string): string | undefined {
  const text = entry.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return canonicalIp(bracketed[1]!);
  return canonicalIp(text) ?? canonicalIp(text.replace(/:\d+$/, ''));
}

/** Every address the header names, oldest hop first, as written (parsed later). */
function forwardedEntries(req: IncomingMessage, header: string): string[] {
  const raw = req.headers[header];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const elements = value.split(',').map((e) => e.trim()).filter((e) => e !== '');
  if (header !== 'forwarded') return elements;
  // RFC 7239: `for=192.0.2.43;proto=https, for="[2001:db8::17]:4711"`; an element without `for=` names no one.
  return elements.map((element) => /(?:^|;)\s*for=("[^"]*"|[^;]*)/i.exec(element)?.[1] ?? '');
}

/** Where a request came from, or why that cannot be told. */
type Source = { address: string } | { refused: string };

/**
 * Middleware that answers 403 `application/problem+json` before the body is read when the sender
 * is not in `allowedSources`; otherwise passes the request on untouched.
 * @throws TypeError at setup for an entry that is not an address or range, an empty list, or a
 *   `trustProxy` that is malformed or given without `allowedSources`.
 */
export function sourceAllowlist(opts: SourceOptions): RequestHandler {
  if (!opts.allowedSources) throw new TypeError('sourceAllowlist needs allowedSources');
  const allowed = matcher(opts.allowedSources, 'allowedSources');
  const trust = opts.trustProxy;
  if (trust && !(Number.isInteger(trust.hops) && trust.hops >= 1)) throw new TypeError('trustProxy.hops must be a whole number of proxies, at least 1');
  const header = (trust?.header ?? 'x-forwarded-for').toLowerCase();
  const proxies = trust?.proxies ? matcher(trust.proxies, 'trustProxy.proxies') : undefined;

  const sourceOf = (req: IncomingMessage): Source => {
    // Zone ids (fe80::1%eth0) name the local interface, not the sender.
    const peer = canonicalIp((req.socket.remoteAddress ?? '').replace(/%.*$/s, ''));
    if (peer === undefined) return { refused: 'The connection has no peer address' };
    if (!trust) return { address: peer };
    if (proxies && !proxies(peer)) return { refused: `${peer} is not a trusted proxy` };
    const entries = forwardedEntries(req, header);
    const entry = entries[entries.length - trust.hops];
    if (entry === undefined) return { refused: `${header} names ${entries.length} address(es), fewer than the ${trust.hops} trusted proxy hop(s) add, so the sender is unknown` };
    const address = entryAddress(entry);
    return address === undefined ? { refused: `${header} entry ${JSON.stringify(entry)} is not an IP address` } : { address };
  };

  return (req, res, next) => {
    const source = sourceOf(req);
    const detail = 'refused' in source ? source.refused : allowed(source.address) ? undefined : `${source.address} is not an allowed source address`;
    if (detail === undefined) {
      next();
      return;
    }
    // The body stays unread: nothing a refused sender wrote is parsed, buffered or verified.
    res.status(403).type('application/problem+json').json({ type: 'about:blank', title: 'Forbidden', status: 403, detail });
  };
}
