import { type DestinationStream, pino, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

export type { Logger };

/** `json`: one JSON object a line, for log shippers; `pretty`: coloured lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/** One logger per process, named after its component. */
export function createLogger(level: string, component: string, format: LogFormat = 'json', destination?: DestinationStream): Logger {
  // Bearer credentials (API keys, portal session tokens) never reach a log line, nor a subscription's
  // outgoing credentials (`auth`, custom header values) should a body or a subscription ever be logged.
  // Request lines are redacted field by field too (logger-redaction.ts: query parameters, any credential-shaped value).
  const redact = {
    paths: ['req.headers.authorization', 'req.headers["proxy-authorization"]', 'req.headers["x-api-key"]', 'req.headers.cookie', 'req.body.auth', 'req.body.headers', 'auth', '*.auth'],
    censor: '[redacted]',
  };
  const options = { level, base: { service: 'webhook-service', component }, redact };
  if (format === 'json') return destination ? pino(options, destination) : pino(options);
  // In-process and synchronous: lines keep their order with the supervisor's own output.
  return pino(options, PinoPretty({ sync: true, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss.l' }));
}
