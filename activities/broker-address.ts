import { isIP } from 'node:net';
import { callbackPortProblem, classifyAddress, portOf } from '../src/webhooks/address-policy';

/** Why the address policy refuses `host` and `port` before any connection (IP literals and ports; names are checked at lookup), or undefined. */
export function hostPortProblem(host: string, port: number, protocol: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  const cls = isIP(bare) ? classifyAddress(bare) : undefined;
  return cls ? `${bare} is a ${cls} address` : callbackPortProblem(port, protocol);
}

/** Why the address policy refuses a broker's `url` before any connection, or undefined. */
export function addressProblem(req: { url: string; allowPrivate: boolean }): string | undefined {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return 'invalid broker URL';
  }
  if (req.allowPrivate) return undefined;
  return hostPortProblem(url.hostname, portOf(url), url.protocol);
}
