import { isIP } from 'node:net';

/** An IP address or range: `address` with its family and prefix length (32 or 128 for one address). */
export interface IpRange {
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix: number;
}

const MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * The address as its own family would write it: an IPv4-mapped IPv6 address (`::ffff:127.0.0.2`,
 * `::ffff:7f00:2`, `0:0:0:0:0:ffff:7f00:2`) becomes the IPv4 address it carries, since that is
 * the peer a dual-stack socket really talks to; other IPv6 addresses are written canonically.
 * Returns `undefined` for anything that is not an IP address (ports, ranges, zone ids included).
 */
export function canonicalIp(text: string): string | undefined {
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6 || text.includes('%')) return undefined;
  // The WHATWG URL parser writes IPv6 canonically (compressed, lowercase, a dotted tail as hex).
  const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = MAPPED.exec(canonical);
  if (!mapped) return canonical;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * Parses one address (`127.0.0.2`, `2001:db8::7`) or CIDR range (`10.0.0.0/8`, `2001:db8::/32`).
 * An IPv4-mapped range with a prefix of at least 96 (`::ffff:10.0.0.0/104`) is read as the IPv4
 * range it covers. Returns `undefined` when `text` is neither.
 */
export function parseIpRange(text: string): IpRange | undefined {
  const slash = text.indexOf('/');
  const addressText = (slash === -1 ? text : text.slice(0, slash)).trim();
  const prefixText = slash === -1 ? undefined : text.slice(slash + 1).trim();
  const address = canonicalIp(addressText);
  if (address === undefined) return undefined;
  const bits = isIP(addressText) === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  if (isIP(address) === 4) {
    // A mapped range narrower than ::ffff:0:0/96 is an IPv4 range; a wider one is not only IPv4.
    if (bits === 128 && prefix < 96) return { address: `::ffff:${address}`, family: 'ipv6', prefix };
    return { address, family: 'ipv4', prefix: bits === 128 ? prefix - 96 : prefix };
  }
  return { address, family: 'ipv6', prefix };
}

/** `address/prefix`, the notation allow-lists and GitHub's `/meta` use. */
export function formatIpRange(range: IpRange): string {
  return `${range.address}/${range.prefix}`;
}
