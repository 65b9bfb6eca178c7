import { type Context, context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Request, RequestHandler } from 'express';
import { redactUrl } from '../logger-redaction';
import { routeOf } from './metrics';

const spans = new WeakMap<Request, Context>();

/**
 * Starts a server span per request, continuing the caller's `traceparent`, and ends it with
 * the route template and status once the response is sent. Returns two handlers: the second
 * re-enters the span's context after the body parser, whose stream callbacks lose it. The
 * path attribute is redacted like a log line, with the configured `knownSecrets` too.
 */
export function httpTracing(tracer: Tracer, knownSecrets: readonly string[] = []): { start: RequestHandler; resume: RequestHandler } {
  const start: RequestHandler = (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span: Span = tracer.startSpan(req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': redactUrl(req.path, knownSecrets) } }, parent);
    const ctx = trace.setSpan(parent, span);
    spans.set(req, ctx);
    res.once('finish', () => {
      const route = routeOf(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(ctx, next);
  };
  const resume: RequestHandler = (req, _res, next) => {
    const ctx = spans.get(req);
    if (ctx) context.with(ctx, next);
    else next();
  };
  return { start, resume };
}
