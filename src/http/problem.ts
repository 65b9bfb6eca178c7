import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';

/** One offending field of a rejected request. */
export interface FieldError {
  path: string;
  message: string;
}

/** RFC 9457 problem details, as the contract's Problem schema describes. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: FieldError[];
}

/** A domain or HTTP error that maps to a problem+json response. */
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

/** Writes a problem+json response. */
export function sendProblem(res: Response, problem: Problem): void {
  res.status(problem.status).type('application/problem+json').json(problem);
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** Builds a problem with a stable `type` derived from its title. */
export function problem(status: number, title: string, detail?: string, errors?: FieldError[]): Problem {
  return { type: `${typeBase}${slug(title)}`, title, status, ...(detail ? { detail } : {}), ...(errors?.length ? { errors } : {}) };
}

/** 404 for any route the app does not serve. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, { ...problem(404, 'Not Found', `No route for ${req.method} ${req.path}`), instance: req.originalUrl });
};

/** Maps every error (validator, body parser, domain) to problem+json; hides internals on 5xx. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const p = toProblem(err);
    if (p.status >= 500) logger.error({ err, method: req.method, url: req.originalUrl }, 'request failed');
    sendProblem(res, { ...p, instance: req.originalUrl });
  };
}

interface StatusError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: Array<{ path?: string; message?: string }>;
}

/** Translates any thrown value into a Problem. */
export function toProblem(err: unknown): Problem {
  if (err instanceof HttpProblem) return problem(err.status, err.title, err.message, err.errors);
  const e = (err ?? {}) as StatusError;
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (e.type === 'entity.parse.failed') return problem(400, 'Malformed JSON', 'The request body is not valid JSON');
    if (e.type === 'entity.too.large') return problem(413, 'Payload Too Large', e.message);
    const errors = e.errors?.map((x) => ({ path: x.path ?? '', message: x.message ?? 'invalid' }));
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
  };
  return titles[status] ?? 'Client Error';
}
