import { context, propagation, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { type PostRequest, type PostResult, postWebhook } from './http-post';

/** The POST an activity uses: the injected one or {@link postWebhook}, traced when a tracer is given. */
export function poster(deps: { post?: ((req: PostRequest) => Promise<PostResult>) | undefined; tracer?: Tracer | undefined }): (req: PostRequest) => Promise<PostResult> {
  const post = deps.post ?? postWebhook;
  return deps.tracer ? tracedPost(deps.tracer, post) : post;
}

/**
 * Wraps a POST in a client span that continues the active trace and sends it on as W3C
 * `traceparent` (and `tracestate`), so a receiver's own tracing joins the delivery's trace.
 * The URL's query is left out of the span: callback URLs may carry tokens there.
 */
export function tracedPost(tracer: Tracer, post: (req: PostRequest) => Promise<PostResult>): (req: PostRequest) => Promise<PostResult> {
  return (req) => {
    const url = URL.canParse(req.url) ? new URL(req.url) : undefined;
    return tracer.startActiveSpan(
      'POST',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          ...(req.sourceAddress ? { 'network.local.address': req.sourceAddress } : {}),
          ...(url ? { 'server.address': url.hostname, 'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)), 'url.path': url.pathname } : {}),
        },
      },
      async (span) => {
        const headers = { ...req.headers };
        propagation.inject(context.active(), headers);
        try {
          const result = await post({ ...req, headers });
          span.setAttribute('webhook.outcome', result.outcome);
          if ('statusCode' in result) span.setAttribute('http.response.status_code', result.statusCode);
          if (result.outcome !== 'delivered') span.setStatus({ code: SpanStatusCode.ERROR, message: 'error' in result ? result.error : `HTTP ${result.statusCode}` });
          return result;
        } finally {
          span.end();
        }
      },
    );
  };
}

