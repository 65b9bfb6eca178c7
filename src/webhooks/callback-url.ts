import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { callbackPortProblem, classifyAddress, portOf } from './address-policy';
import type { AddressClass } from './address-policy';

/** Longest callback URL accepted, counted on both the raw input and the normalized href. */
export const MAX_CALLBACK_URL_LENGTH = 2048;

/** Outcome of {@link checkCallbackUrl}: the normalized URL, or a short lowercase reason. */
export type CallbackUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Options for {@link checkCallbackUrl}. */
export interface CallbackUrlOptions {
  /** Accept any host (local development); only the shape rules apply and nothing is resolved. */
  allowPrivate: boolean;
  /** The schemes accepted, lowercase; `https` and `http` unless given (a subscription's url also takes its broker kinds'). */
  schemes?: readonly string[];
  /** Resolves a hostname to every IP address; defaults to `dns.lookup(host, { all: true })`. */
  resolve?: (host: string) => Promise<string[]>;
}

// Names that by convention or RFC never reach a public server, checked as the name or a suffix.
const NON_PUBLIC_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'] as const;

const fail = (reason: string): CallbackUrlCheck => ({ ok: false, reason });

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address);
}

function addressPhrase(cls: AddressClass): string {
  return `${cls === 'unspecified' ? 'an' : 'a'} ${cls} address`;
}

/** `schemes`, each secure one with its plain twin after it, as a sentence: `https (or http), or amqps (or amqp)`. */
function schemeChoices(schemes: readonly string[]): string {
  const pairs: string[] = [];
  for (let i = 0; i < schemes.length; i += 2) pairs.push(schemes[i + 1] ? `${schemes[i]} (or ${schemes[i + 1]})` : schemes[i]!);
  return pairs.join(', or ');
}

/** Rules that need no network: parseable, one of `schemes`, no credentials or fragment, bounded length. */
function checkShape(raw: string, schemes: readonly string[]): CallbackUrlCheck {
  if (raw.length > MAX_CALLBACK_URL_LENGTH) return fail(`must be at most ${MAX_CALLBACK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('must be an absolute http(s) URL');
  }
  const scheme = url.protocol.slice(0, -1);
  if (!schemes.includes(scheme)) return fail(`scheme ${scheme} is not allowed; use ${schemeChoices(schemes)}`);
  // WHATWG parsing turns `http:///hooks` into host `hooks`; an empty authority is a typo, not a host.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#\\\s]/i.test(raw.trim())) return fail('must have a host');
  // Percent-encoding can grow the URL past the limit the raw text met.
  if (url.href.length > MAX_CALLBACK_URL_LENGTH) return fail(`must be at most ${MAX_CALLBACK_URL_LENGTH} characters`);
  if (url.username !== '' || url.password !== '') return fail('must not contain credentials');
  // `url.hash` is '' for a bare trailing '#', but the href keeps it; '#' appears nowhere else unescaped.
  if (url.href.includes('#')) return fail('must not contain a fragment');
  if (url.hostname === '') return fail('must have a host');
  return { ok: true, url };
}

function isPublicHostname(name: string): boolean {
  if (!name.includes('.')) return false; // single label: resolved via search domains, i.e. internal
  return !NON_PUBLIC_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** Why the URL's host must not receive webhooks, or undefined when it may. */
async function checkDestination(url: URL, resolve: (host: string) => Promise<string[]>): Promise<string | undefined> {
  const host = url.hostname;
  // WHATWG URL already turned decimal/hex/octal/short IPv4 into dotted form; IPv6 keeps its brackets.
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) {
    const cls = classifyAddress(literal);
    return cls === undefined ? undefined : `host ${literal} is ${addressPhrase(cls)}`;
  }
  if (!isPublicHostname(host.endsWith('.') ? host.slice(0, -1) : host)) return `host ${host} is not a public hostname`;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'host does not resolve';
  }
  if (addresses.length === 0) return 'host does not resolve';
  for (const address of addresses) {
    if (isIP(address) === 0) return `host ${host} resolves to ${address} (not an ip address)`;
    const cls = classifyAddress(address);
    if (cls !== undefined) return `host ${host} resolves to ${address} (${cls} address)`;
  }
  return undefined;
}

/**
 * Validates a subscriber callback URL at subscription time. Rejects anything but absolute http(s)
 * URLs without credentials or fragment, and, unless `allowPrivate`, ports `callbackPortProblem`
 * refuses and hosts that are or resolve to a non-public address (see `classifyAddress`) or are
 * non-public names (localhost, *.local, *.internal, single labels). A passing check is no guarantee at delivery time: connect with `createGuardedLookup`.
 */
export async function checkCallbackUrl(raw: string, opts: CallbackUrlOptions): Promise<CallbackUrlCheck> {
  const shape = checkShape(raw, opts.schemes ?? ['https', 'http']);
  if (!shape.ok || opts.allowPrivate) return shape;
  const reason = callbackPortProblem(portOf(shape.url), shape.url.protocol) ?? (await checkDestination(shape.url, opts.resolve ?? resolveAll));
  return reason === undefined ? shape : fail(reason);
}
