import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { FieldError, Problem, ShortItem } from '../contract/types';
import { DomainError, type DomainErrorKind } from '../errors/domain-error';
import { InsufficientStock } from '../errors/insufficient-stock';
import { RetryLater } from '../errors/retry-later';
import { type ParameterLocations, rememberedParameters, toFieldError } from './field-locations';
import type { Logger } from '../logger';
import { redactUrl } from '../logger-redaction';
import { rateLimitRefusal } from './rate-limit';
import { bearerChallenge } from './security';

/** An HTTP-layer error that maps to a problem+json response (the domain throws `DomainError`). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail?: string,
    readonly errors?: FieldError[],
  ) {
    super(detail ?? title);
    this.name = 'HttpProblem';
  }
}

const typeBase = 'https://webhook-service.dev/problems/';

/** The HTTP status of each kind of domain refusal. */
const domainStatus: Record<DomainErrorKind, number> = { invalid: 400, forbidden: 403, not_found: 404, conflict: 409, unprocessable: 422 };

/** Writes a problem+json response. */
export function sendProblem(res: Response, problem: Problem): void {
  res.status(problem.status).type('application/problem+json').json(problem);
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** Most field errors a problem lists; the detail says how many there were. */
export const MAX_PROBLEM_ERRORS = 50;
/** Longest `detail`, and longest `path` or `message` of a listed error, in characters. */
const MAX_DETAIL = 1000;
const MAX_ERROR_TEXT = 300;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Builds a problem with a stable `type` derived from its title. Its size is bounded whatever
 * the request: the first {@link MAX_PROBLEM_ERRORS} errors, each cut short, and a short detail.
 */
export function problem(status: number, title: string, detail?: string, errors?: FieldError[]): Problem {
  const listed = errors?.slice(0, MAX_PROBLEM_ERRORS).map((e) => ({ path: cut(e.path, MAX_ERROR_TEXT), message: cut(e.message, MAX_ERROR_TEXT) }));
  const omitted = errors && errors.length > MAX_PROBLEM_ERRORS ? `(${MAX_PROBLEM_ERRORS} of ${errors.length} errors listed)` : undefined;
  const text = [detail && cut(detail, MAX_DETAIL), omitted].filter(Boolean).join(' ');
  return { type: `${typeBase}${slug(title)}`, title, status, ...(text ? { detail: text } : {}), ...(listed?.length ? { errors: listed } : {}) };
}

/** 404 for any route the app does not serve. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, { ...problem(404, 'Not Found', `No route for ${req.method} ${req.path}`), instance: req.originalUrl });
};

/** Response headers an error may carry onto its problem response (e.g. the validator's 405 `Allow`). */
const forwardedHeaders = ['allow', 'retry-after'];

function headersOf(err: unknown): Record<string, string> {
  const headers = (err as { headers?: unknown } | null)?.headers;
  if (typeof headers !== 'object' || headers === null) return {};
  return Object.fromEntries(
    Object.entries(headers).filter(
      (entry): entry is [string, string] => forwardedHeaders.includes(entry[0].toLowerCase()) && typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
}

/**
 * Maps every error (validator, body parser, domain) to problem+json; hides internals on 5xx.
 * 401 and 403 carry a `WWW-Authenticate: Bearer` challenge (RFC 6750), 405 its `Allow` list;
 * a request over its rate limit is a 429 (its headers are already set by the security handler);
 * a domain `RetryLater` is a 503 with its `Retry-After`.
 */
export function errorHandler(logger: Logger, knownSecrets: readonly string[] = []): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    // Already answered (e.g. a body cut at its deadline, whose parser then fails): nothing more to say.
    if (res.headersSent) {
      logger.debug({ err, method: req.method }, 'error after the response was sent');
      return;
    }
    const refusal = rateLimitRefusal(req);
    const p = refusal ? problem(429, 'Too Many Requests', refusal.detail, [refusal.error]) : toProblem(err, req, rememberedParameters(res));
    if (err instanceof RetryLater) {
      // Slowness, not a fault: worth a warning, and the client learns when to send it again.
      logger.warn({ problem: p.title, method: req.method, url: redactUrl(req.originalUrl, knownSecrets) }, p.detail ?? p.title);
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
    } else if (p.status >= 500) logger.error({ err, method: req.method, url: redactUrl(req.originalUrl, knownSecrets) }, 'request failed');
    if (p.status < 500) for (const [name, value] of Object.entries(headersOf(err))) res.setHeader(name, value);
    if (p.status === 401 || p.status === 403) res.setHeader('WWW-Authenticate', bearerChallenge(req, p.status));
    try {
      sendProblem(res, { ...p, instance: req.originalUrl });
    } catch (sendErr) {
      // Response validation refused the problem itself (e.g. a status the operation does not
      // declare): still answer problem+json, as a 500, without going through res.json again.
      logger.error({ err: sendErr, cause: err, method: req.method, url: redactUrl(req.originalUrl, knownSecrets) }, 'error response violates the contract');
      if (res.headersSent) return;
      const fallback = { ...problem(500, 'Internal Server Error', 'An unexpected error occurred'), instance: req.originalUrl };
      res.removeHeader('WWW-Authenticate');
      res.removeHeader('Allow');
      res.status(500).type('application/problem+json').end(JSON.stringify(fallback));
    }
  };
}

interface StatusError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  /** body-parser's size limit in bytes, on `entity.too.large`. */
  limit?: number;
  errors?: Array<{ path?: string; message?: string }>;
}

/**
 * Translates any thrown value into a Problem; `req` lets it name the request's Content-Type, and
 * `parameters` (the operation's path and query parameters) where each refused input field travelled.
 */
export function toProblem(err: unknown, req?: Pick<Request, 'headers'>, parameters?: ParameterLocations): Problem {
  if (err instanceof HttpProblem) return problem(err.status, err.title, err.message, err.errors);
  if (err instanceof DomainError) return problem(domainStatus[err.kind], err.title, err.message, err.errors?.map((e) => toFieldError(e, parameters)));
  if (err instanceof InsufficientStock) return insufficientStock(err, parameters);
  if (err instanceof RetryLater) return problem(503, err.title, err.message);
  const e = (err ?? {}) as StatusError;
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (e.type === 'entity.parse.failed') {
      return problem(400, 'Malformed JSON', 'The request body is not valid JSON', [{ path: '/body', message: 'is not valid JSON' }]);
    }
    if (e.type === 'entity.too.large' || status === 413) {
      const limit = typeof e.limit === 'number' ? `${e.limit} bytes` : 'the configured limit';
      return problem(413, 'Payload Too Large', `The request body exceeds ${limit}`, [{ path: '/body', message: `must be at most ${limit}` }]);
    }
    if (e.type === 'encoding.unsupported') {
      return problem(415, titleFor(415), e.message, [{ path: '/headers/content-encoding', message: 'must be identity, gzip, deflate or br' }]);
    }
    if (status === 415) {
      const type = req?.headers['content-type']?.slice(0, 100);
      return problem(415, titleFor(415), `Content-Type ${type ? `'${type}'` : '(none)'} is not supported; send application/json`, [
        { path: '/headers/content-type', message: 'must be application/json' },
      ]);
    }
    // Missing, unknown or insufficient credentials: the offending field is the Authorization header.
    if (status === 401 || status === 403) {
      return problem(status, titleFor(status), e.message, [{ path: '/headers/authorization', message: e.message ?? titleFor(status) }]);
    }
    // The validator says /params/<name> for path parameters; the contract's locations are path, query, headers, body.
    const errors = e.errors?.map((x) => ({ path: (x.path ?? '').replace(/^\/params\//, '/path/'), message: x.message ?? 'invalid' }));
    return problem(status, titleFor(status), e.message, errors);
  }
  return problem(500, 'Internal Server Error', 'An unexpected error occurred');
}

function titleFor(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    409: 'Conflict',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Content',
    429: 'Too Many Requests',
  };
  return titles[status] ?? 'Client Error';
}

/** 409 naming each short product: `errors` points at the request's fields, `short_items` says what is available. */
function insufficientStock(err: InsufficientStock, parameters: ParameterLocations | undefined): Problem {
  const errors = err.shortfalls.map((s) => toFieldError({ field: s.field, message: `${s.requested} units of product ${s.product_id} asked for, ${s.available} in stock` }, parameters));
  const shortItems: ShortItem[] = err.shortfalls.map(({ product_id, requested, available }) => ({ product_id, requested, available }));
  const body: Problem & { short_items: ShortItem[] } = { ...problem(409, 'Insufficient Stock', err.message, errors), short_items: shortItems };
  return body;
}
