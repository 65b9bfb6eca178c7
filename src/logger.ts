import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; one logger per process, named after its component. */
export function createLogger(level: string, component: string): Logger {
  return pino({ level, base: { service: 'webhook-service', component } });
}
