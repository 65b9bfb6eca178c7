import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { scrapeAllowed } from '../telemetry/scrape-token';

export interface MetricsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  /** Where the Temporal SDK's own Prometheus exporter listens (loopback); its metrics are appended. */
  sdkMetricsUrl?: string | undefined;
  /** When set, scrapes need `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

/**
 * The worker's `/metrics`: its delivery metrics, then the Temporal SDK's (task slots, polls,
 * workflow and activity latencies), so one scrape target covers the whole worker.
 */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<Server> {
  const allowed = scrapeAllowed(opts.token);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: the worker serves GET /metrics only\n');
      return;
    }
    if (!allowed(req.headers.authorization)) {
      res.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer realm="metrics"' }).end('Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
      return;
    }
    void exposition(opts).then(
      (body) => res.writeHead(200, { 'Content-Type': opts.registry.contentType }).end(body),
      (err: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics unavailable: ${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

async function exposition(opts: MetricsServerOptions): Promise<string> {
  const own = await opts.registry.metrics();
  if (!opts.sdkMetricsUrl) return own;
  // A slow or absent SDK exporter must not fail the scrape of our own metrics.
  const sdk = await fetch(opts.sdkMetricsUrl, { signal: AbortSignal.timeout(2000) })
    .then((r) => (r.ok ? r.text() : ''))
    .catch(() => '');
  return sdk ? `${own}\n${sdk}` : own;
}
