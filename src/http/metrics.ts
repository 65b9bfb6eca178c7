import type { Request, RequestHandler } from 'express';
import type { ApiMetrics } from '../telemetry/metrics';
import { scrapeAllowed } from '../telemetry/scrape-token';
import { problem, sendProblem } from './problem';

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

// Refused by load shedding before any route was matched: counted apart from unknown paths.
const shed = new WeakSet<Request>();

/** Labels the request's timing `route="shed"`: it was refused before routing. */
export function labelShed(req: Request): void {
  shed.add(req);
}

/** The route label: the contract's path template, else the Express route, never the raw URL. */
export function routeOf(req: Request): string {
  if (shed.has(req)) return 'shed';
  const template = (req as Request & { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
  if (template) return template;
  const route = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof route === 'string') return route;
  for (const assets of ['/docs/assets/', '/portal/assets/']) if (req.originalUrl.startsWith(assets)) return `${assets}*`;
  return 'unmatched';
}

/** Times every request into `http_request_duration_seconds` once its response is sent. */
export function httpMetrics(metrics: ApiMetrics): RequestHandler {
  return (req, res, next) => {
    const end = metrics.httpRequestDuration.startTimer();
    res.once('finish', () => {
      end({ method: methods.has(req.method) ? req.method : 'other', route: routeOf(req), status_code: String(res.statusCode) });
    });
    next();
  };
}

/** `GET /metrics` in Prometheus text format; with a token, only for `Authorization: Bearer <token>`. */
export function metricsEndpoint(metrics: ApiMetrics, token: string | undefined): RequestHandler {
  const allowed = scrapeAllowed(token);
  return async (req, res) => {
    if (!allowed(req.headers.authorization)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      sendProblem(res, problem(401, 'Unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'));
      return;
    }
    const body = await metrics.registry.metrics();
    res.type(metrics.registry.contentType).send(body);
  };
}
