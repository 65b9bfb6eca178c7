/** An HTTP proxy that takes CONNECT (DELIVERY_PROXY_URL), parsed once at start. */
export interface DeliveryProxy {
  host: string;
  port: number;
  /** `Proxy-Authorization` value, from the URL's user info. */
  authorization?: string | undefined;
}

/**
 * Parses DELIVERY_PROXY_URL: `http://[user:password@]host:port`, an HTTP proxy that takes
 * CONNECT. Its user info becomes `Proxy-Authorization: Basic …`. Operator config, so loopback
 * and private proxies are fine; the address policy applies to the destinations behind it.
 */
export function parseProxyUrl(raw: string): DeliveryProxy | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL like http://proxy.internal:3128';
  }
  if (url.protocol !== 'http:') return `scheme ${url.protocol.slice(0, -1)} is not supported; the proxy is spoken to in plain HTTP (CONNECT), e.g. http://proxy.internal:3128`;
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return 'must be only scheme, host and port (no path, query or fragment)';
  const userinfo = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 80),
    ...(userinfo !== undefined ? { authorization: `Basic ${Buffer.from(userinfo, 'utf8').toString('base64')}` } : {}),
  };
}
