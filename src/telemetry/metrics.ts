import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type DbCommandCounter, dbCommandCounter } from './db-commands';

// Labels carry bounded values only (route templates, event types, outcomes, status classes):
// never an event, subscription or order id, nor a URL.

/** Events emitted, by type; counted by the process that dispatched them (API or relay). */
export interface EventMetrics {
  eventsEmitted: Counter<'event_type'>;
}

/** What every process counts besides the Node.js process metrics. */
export interface ProcessMetrics {
  registry: Registry;
  /** Database commands this process sent; fed by `countDbCommands` on its client. */
  dbCommands: DbCommandCounter;
}

/** The API process's metrics. */
export interface ApiMetrics extends EventMetrics, ProcessMetrics {
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Requests refused or dropped by admission: over `API_MAX_IN_FLIGHT`, client gone, past `API_MAX_WAIT`, over `API_MAX_BODIES_PER_PEER`, past `API_BODY_TIMEOUT`, or connections over `API_MAX_CONNECTIONS_PER_PEER` or `API_MAX_CONNECTIONS`. */
  requestsShed: Counter<'reason'>;
  /** Requests admitted by load shedding and not yet answered. */
  requestsInFlight: Gauge;
  /** Requests waiting for their owner's turn (API_OWNER_CONCURRENCY). */
  requestsWaitingTurn: Gauge;
}

/** The worker process's metrics: attempts, deliveries, alerts and the relay. */
export interface WorkerMetrics extends EventMetrics, ProcessMetrics {
  attempts: Counter<'outcome' | 'status_class'>;
  attemptDuration: Histogram<'outcome'>;
  firstAttemptLag: Histogram;
  deliveriesFinished: Counter<'state'>;
  deliveriesExhausted: Counter;
  alertsRaised: Counter<'kind'>;
  relayPassDuration: Histogram;
}

/** Reads a gauge's value when it is scraped. */
export type GaugeSource = () => Promise<number>;

// Delivery-scale buckets: a loopback POST takes about a millisecond, a timeout up to 60 s.
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const lagBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

function processRegistry(component: 'api' | 'worker'): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ component });
  collectDefaultMetrics({ register: registry });
  return registry;
}

function eventMetrics(registry: Registry): EventMetrics {
  return {
    eventsEmitted: new Counter({
      name: 'webhook_events_emitted_total',
      help: 'Events emitted, by event type (those with subscribers are written to the event log).',
      labelNames: ['event_type'],
      registers: [registry],
    }),
  };
}

/** The API's registry: HTTP requests and emitted events, plus the Node.js process metrics. */
export function createApiMetrics(): ApiMetrics {
  const registry = processRegistry('api');
  return {
    registry,
    dbCommands: dbCommandCounter(registry),
    ...eventMetrics(registry),
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests served, by method, route template and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: latencyBuckets,
      registers: [registry],
    }),
    requestsShed: new Counter({
      name: 'http_requests_shed_total',
      help: 'Requests not served because the API was overloaded, by reason: in_flight (over API_MAX_IN_FLIGHT, 503), deadline (waited past API_MAX_WAIT, 503), client_gone (the client closed the connection before its turn; dropped), peer_bodies (over API_MAX_BODIES_PER_PEER, 429), body_timeout (body not in within API_BODY_TIMEOUT, 408), peer_connections (a connection over API_MAX_CONNECTIONS_PER_PEER, closed at once), max_connections (a connection over API_MAX_CONNECTIONS, closed at once).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    requestsInFlight: new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests this API process is serving now (probes, metrics and docs not counted).',
      registers: [registry],
    }),
    requestsWaitingTurn: new Gauge({
      name: 'http_requests_waiting_turn',
      help: 'Requests of an owner that already runs API_OWNER_CONCURRENCY at once while another owner sends, waiting their turn (counted in http_requests_in_flight too).',
      registers: [registry],
    }),
  };
}

/**
 * The worker's registry: delivery attempts and outcomes, alerts and the relay, plus the
 * Node.js process metrics. `retrying` and `relayBacklog` are read from the durable state
 * (Temporal visibility, the dispatch notes) when scraped: the same value from every worker,
 * so aggregate them with max(), not sum().
 */
export function createWorkerMetrics(sources: { retrying: GaugeSource; relayBacklog: GaugeSource }): WorkerMetrics {
  const registry = processRegistry('worker');
  const readFailures = new Counter({
    name: 'webhook_metrics_read_failures_total',
    help: 'Scrapes that could not read a gauge from its durable source (Temporal, MongoDB), by gauge.',
    labelNames: ['gauge'],
    registers: [registry],
  });
  const gaugeFrom = (name: string, help: string, read: GaugeSource) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        // A source that is away (Temporal restarting) must not fail the whole scrape: the value is unknown, NaN.
        try {
          this.set(await read());
        } catch {
          this.set(Number.NaN);
          readFailures.inc({ gauge: name });
        }
      },
    });
  gaugeFrom('webhook_deliveries_retrying', 'Deliveries waiting for their next attempt after a failed one.', sources.retrying);
  gaugeFrom('webhook_relay_backlog', 'Events and redeliveries waiting for the relay to start their workflow.', sources.relayBacklog);
  return {
    registry,
    dbCommands: dbCommandCounter(registry),
    ...eventMetrics(registry),
    attempts: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Delivery attempts made, by outcome and HTTP status class (none without a response).',
      labelNames: ['outcome', 'status_class'],
      registers: [registry],
    }),
    attemptDuration: new Histogram({
      name: 'webhook_delivery_attempt_duration_seconds',
      help: "Duration of delivery attempts' POSTs, by outcome.",
      labelNames: ['outcome'],
      buckets: latencyBuckets,
      registers: [registry],
    }),
    firstAttemptLag: new Histogram({
      name: 'webhook_event_first_attempt_lag_seconds',
      help: 'Time from an event being emitted to the start of its first delivery attempt.',
      buckets: lagBuckets,
      registers: [registry],
    }),
    deliveriesFinished: new Counter({
      name: 'webhook_deliveries_finished_total',
      help: 'Deliveries that reached a final state: delivered, failed (attempts exhausted) or stopped (a 4xx).',
      labelNames: ['state'],
      registers: [registry],
    }),
    deliveriesExhausted: new Counter({
      name: 'webhook_deliveries_exhausted_total',
      help: 'Deliveries whose every attempt failed (each raises an administrator alert).',
      registers: [registry],
    }),
    alertsRaised: new Counter({
      name: 'webhook_alerts_raised_total',
      help: 'Administrator alerts raised, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    relayPassDuration: new Histogram({
      name: 'webhook_relay_pass_duration_seconds',
      help: 'Duration of relay passes over the dispatch notes.',
      buckets: latencyBuckets,
      registers: [registry],
    }),
  };
}

/** The status class label of an attempt: `2xx` … `5xx`, or `none` when no response came. */
export function statusClass(statusCode: number | undefined): string {
  return statusCode === undefined ? 'none' : `${Math.floor(statusCode / 100)}xx`;
}
