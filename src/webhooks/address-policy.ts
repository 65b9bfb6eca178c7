import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

/** Why an address is not a public unicast destination a webhook may be delivered to. */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

interface Ipv4Rule {
  base: number;
  mask: number;
  cls: AddressClass;
}

interface Ipv6Rule {
  base: bigint;
  shift: bigint;
  cls: AddressClass;
}

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

/** Expects text `net.isIP` accepts as IPv6, without a zone id. */
function ipv6ToBigInt(ip: string): bigint {
  let text = ip;
  // A dotted IPv4 tail (::ffff:1.2.3.4) is the last two hextets.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToNumber(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros: string[] = new Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  return [...headGroups, ...zeros, ...restGroups].reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function ipv4Rule(cidr: string, cls: AddressClass): Ipv4Rule {
  const [addr = '', len = '32'] = cidr.split('/');
  const bits = Number(len);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (ipv4ToNumber(addr) & mask) >>> 0, mask, cls };
}

function ipv6Rule(cidr: string, cls: AddressClass): Ipv6Rule {
  const [addr = '', len = '128'] = cidr.split('/');
  const shift = BigInt(128 - Number(len));
  return { base: ipv6ToBigInt(addr) >> shift, shift, cls };
}

// First match wins: the metadata hosts must precede the ranges that contain them.
const IPV4_RULES: readonly Ipv4Rule[] = [
  ipv4Rule('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack, ...
  ipv4Rule('100.100.100.200/32', 'metadata'), // Alibaba Cloud
  ipv4Rule('0.0.0.0/8', 'unspecified'),
  ipv4Rule('127.0.0.0/8', 'loopback'),
  ipv4Rule('10.0.0.0/8', 'private'),
  ipv4Rule('172.16.0.0/12', 'private'),
  ipv4Rule('192.168.0.0/16', 'private'),
  ipv4Rule('169.254.0.0/16', 'link-local'),
  ipv4Rule('100.64.0.0/10', 'cgnat'),
  ipv4Rule('224.0.0.0/4', 'multicast'),
  ipv4Rule('240.0.0.0/4', 'reserved'), // includes the broadcast 255.255.255.255
  ipv4Rule('192.0.0.0/24', 'reserved'),
  ipv4Rule('192.0.2.0/24', 'reserved'),
  ipv4Rule('198.18.0.0/15', 'reserved'),
  ipv4Rule('198.51.100.0/24', 'reserved'),
  ipv4Rule('203.0.113.0/24', 'reserved'),
];

const IPV6_RULES: readonly Ipv6Rule[] = [
  ipv6Rule('fd00:ec2::254/128', 'metadata'), // AWS IMDS over IPv6
  ipv6Rule('ff00::/8', 'multicast'),
  ipv6Rule('fe80::/10', 'link-local'),
  ipv6Rule('fc00::/7', 'private'),
  ipv6Rule('2001:db8::/32', 'reserved'),
  ipv6Rule('3fff::/20', 'reserved'), // documentation, RFC 9637
  ipv6Rule('2001::/23', 'reserved'), // IETF protocol assignments (Teredo, benchmarking, ORCHID): never a subscriber's server
];

// Everything outside 2000::/3 that no rule or unwrapping handled is unassigned or special-use.
const GLOBAL_UNICAST = ipv6Rule('2000::/3', 'reserved');
const NAT64 = ipv6Rule('64:ff9b::/96', 'reserved');
const SIX_TO_FOUR = ipv6Rule('2002::/16', 'reserved');

function matches(addr: bigint, rule: Ipv6Rule): boolean {
  return addr >> rule.shift === rule.base;
}

function classifyIpv4(addr: number): AddressClass | undefined {
  return IPV4_RULES.find((rule) => (addr & rule.mask) >>> 0 === rule.base)?.cls;
}

/** The IPv4 address a transition form carries, since that is where the packets really go. */
function embeddedIpv4(addr: bigint): number | undefined {
  const high96 = addr >> 32n;
  if (high96 === 0xffffn || high96 === 0n || matches(addr, NAT64)) return Number(addr & 0xffffffffn); // mapped, compatible, NAT64
  if (matches(addr, SIX_TO_FOUR)) return Number((addr >> 80n) & 0xffffffffn);
  return undefined;
}

function classifyIpv6(addr: bigint): AddressClass | undefined {
  if (addr === 0n) return 'unspecified';
  if (addr === 1n) return 'loopback';
  const v4 = embeddedIpv4(addr);
  if (v4 !== undefined) return classifyIpv4(v4);
  const rule = IPV6_RULES.find((r) => matches(addr, r));
  if (rule) return rule.cls;
  return matches(addr, GLOBAL_UNICAST) ? undefined : 'reserved';
}

/**
 * Classifies an IP address (any text `net.isIP` accepts, IPv6 zone ids allowed).
 * Returns `undefined` for public unicast addresses, otherwise why the address is off limits.
 * IPv4-mapped/compatible, NAT64 (64:ff9b::/96) and 6to4 (2002::/16) IPv6 addresses are classified by their IPv4.
 * @throws TypeError when `ip` is not an IP address (callers must not treat garbage as public).
 */
export function classifyAddress(ip: string): AddressClass | undefined {
  const family = isIP(ip);
  if (family === 4) return classifyIpv4(ipv4ToNumber(ip));
  if (family === 6) return classifyIpv6(ipv6ToBigInt(ip.replace(/%.*$/s, '')));
  throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
}

/**
 * True when webhooks must not be delivered to `ip` (see {@link classifyAddress}).
 * @throws TypeError when `ip` is not an IP address.
 */
export function isForbiddenAddress(ip: string): boolean {
  return classifyAddress(ip) !== undefined;
}

/**
 * Ports at or above 1024 that well-known internal services listen on: a public host answering on
 * one is more likely a database or control plane left open than a webhook receiver.
 */
export const DENIED_CALLBACK_PORTS: ReadonlyMap<number, string> = new Map([
  [1080, 'SOCKS'],
  [2375, 'Docker'],
  [2376, 'Docker'],
  [2379, 'etcd'],
  [2380, 'etcd'],
  [3306, 'MySQL'],
  [5432, 'PostgreSQL'],
  [5672, 'AMQP'],
  [6379, 'Redis'],
  [6443, 'Kubernetes API'],
  [7233, 'Temporal'],
  [8500, 'Consul'],
  [9042, 'Cassandra'],
  [9092, 'Kafka'],
  [9200, 'Elasticsearch'],
  [9300, 'Elasticsearch'],
  [10250, 'kubelet'],
  [11211, 'memcached'],
  [27017, 'MongoDB'],
]);

/** The port a URL connects to: its own, or its scheme's default. */
export function portOf(url: URL): number {
  return Number(url.port || (DEFAULT_PORTS[url.protocol] ?? 80));
}

/** Kafka's port, taken by TLS listeners too (hosted clusters serve SASL_SSL on it). */
const KAFKA_PORT = 9092;

/** Each scheme's own port: a destination of that kind may use it though it is a service port. */
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'https:': 443, 'http:': 80, 'amqps:': 5671, 'amqp:': 5672, 'kafka:': 9092, 'kafkas:': 9093, 'tls:': 4222, 'nats:': 4222, 'rediss:': 6379, 'redis:': 6379 };

/**
 * Why a public destination may not be reached on `port`, or undefined: 80, 443 and 1024–65535 are
 * allowed, except {@link DENIED_CALLBACK_PORTS}, and the own port of `protocol` (a broker's: 5672 for
 * `amqp:`, 9092 for `kafka:` and `kafkas:`, 6379 for `redis:` and `rediss:`). Other ports below 1024 are system services (SSH, SMTP).
 */
export function callbackPortProblem(port: number, protocol = 'https:'): string | undefined {
  if (port === DEFAULT_PORTS[protocol] || (protocol === 'kafkas:' && port === KAFKA_PORT)) return undefined;
  const service = DENIED_CALLBACK_PORTS.get(port);
  if (service !== undefined) return `port ${port} (${service}) is not allowed; use 443, 80 or another port from 1024 to 65535`;
  if (port !== 80 && port !== 443 && port < 1024) return `port ${port} is not allowed; use 443, 80 or a port from 1024 to 65535`;
  return undefined;
}

/** Raised (via the lookup callback) when a callback host resolves to a forbidden address. */
export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
  /** Errno-style code so socket error handling can tell this apart from DNS or connect failures. */
  readonly code = 'EFORBIDDENADDRESS';
  readonly hostname: string;
  readonly address: string;
  readonly addressClass: AddressClass;

  constructor(hostname: string, address: string, addressClass: AddressClass) {
    super(`callback host ${hostname} resolves to ${address} (${addressClass} address)`);
    this.hostname = hostname;
    this.address = address;
    this.addressClass = addressClass;
  }
}

/** The `dns.lookup` overload the guarded lookup relies on; injectable for tests. */
export type LookupAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Options for {@link createGuardedLookup}. */
export interface GuardedLookupOptions {
  /** Skip the address check (development and tests against local receivers). */
  allowPrivate: boolean;
  /** Underlying resolver; defaults to `dns.lookup`. */
  lookup?: LookupAll;
}

/** Why a successful resolution must still not be connected to, if it must not. */
function rejection(hostname: string, addresses: readonly LookupAddress[], allowPrivate: boolean): Error | undefined {
  if (addresses.length === 0) {
    return Object.assign(new Error(`callback host ${hostname} has no addresses`), { code: 'ENOTFOUND', hostname });
  }
  if (allowPrivate) return undefined;
  for (const { address } of addresses) {
    try {
      const cls = classifyAddress(address);
      if (cls !== undefined) return new ForbiddenAddressError(hostname, address, cls);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }
  return undefined;
}

/**
 * A `lookup` for `net.connect` / `http.request` / undici `connect` that resolves with `dns.lookup`
 * and fails with {@link ForbiddenAddressError} if ANY resolved address is forbidden, so the address
 * checked is the address connected to (DNS rebinding cannot slip in between). Honours `options.all`.
 *
 * Node does not call `lookup` for IP-literal hosts: check those with {@link isForbiddenAddress}
 * (or `checkCallbackUrl`) before connecting.
 */
export function createGuardedLookup(opts: GuardedLookupOptions): LookupFunction {
  const lookupAll: LookupAll = opts.lookup ?? dnsLookup;
  return (hostname, options, callback) => {
    // Always ask for every address: a single answer could hide a forbidden sibling used on retry.
    lookupAll(hostname, { ...options, all: true }, (err, addresses) => {
      const failure = err ?? rejection(hostname, addresses, opts.allowPrivate);
      if (failure) {
        callback(failure, options.all ? [] : '');
        return;
      }
      const first = addresses[0]!;
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
