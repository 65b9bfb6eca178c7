/**
 * Options of the fault and soak run (`npm run chaos -- --duration 60s`): flags override CHAOS_*
 * variables, which override the defaults of issue 11 (30 events/s × 5 subscriptions for 3 minutes,
 * a 60 s receiver outage), issue 32 (one more subscription, to a Redis stream) and issue 33 (an
 * ordered subscription, status changes to give its keys several events, and a pause).
 */
import { parseArgs } from 'node:util';
import { seconds } from '../../stack/harness/stats';

export interface ChaosOptions {
  /** Seconds of steady load. */
  durationS: number;
  /** Orders (events) per second offered. */
  rate: number;
  /** HTTP subscriptions, one receiver process each. */
  subscriptions: number;
  /** Seconds one receiver is down (connection refused); capped at a third of the run. */
  receiverOutageS: number;
  /** Seconds a killed process stays down before it is started again; capped by the fault slots. */
  downS: number;
  /** Seconds after the load ends that the run waits for the backlog before counting what is missing as lost. */
  drainTimeoutS: number;
  /** Per-request timeout of the order POSTs, seconds: a slower answer counts as refused. */
  requestTimeoutS: number;
  /** The run fails when fewer than this share of the asked rate was accepted (0 turns the check off). */
  minAccepted: number;
  /** Which worker and API process each fault hits (0 or 1), and the order of the kill faults. */
  seed: number;
  /** Hard limit for the whole program, seconds: everything is stopped after it. */
  maxSeconds: number;
  /** The service's retry schedule for the run (DELIVERY_RETRY_SCHEDULE). */
  retrySchedule: string;
  /** DELIVERY_MAX_ATTEMPTS for the run. */
  maxAttempts: number;
  /** Print every line of the service processes' output. */
  verbose: boolean;
  /** Also write the report as JSON to this file. */
  out: string | undefined;
  /** The launcher's server profile: `local` (the dev server) or `cluster` (two Temporal nodes on PostgreSQL). */
  stack: 'local' | 'cluster';
  /** The broker destination beside the HTTP subscriptions: `redis` (a Redis Streams subscription, and the broker killed mid-load) or `none`. */
  broker: 'redis' | 'none';
  /** Share of accepted orders moved pending → paid → shipped (order.updated events for the ordered subscription). */
  updateShare: number;
  /** Seconds one subscription stays paused (capped by its fault slot). */
  pauseS: number;
  /** Which subscription is paused: a plain HTTP one, or the ordered one. */
  pauseTarget: 'plain' | 'ordered';
}

const flags = {
  duration: { type: 'string', env: 'CHAOS_DURATION', fallback: '180s', seconds: true },
  rate: { type: 'string', env: 'CHAOS_RATE', fallback: '30' },
  subscriptions: { type: 'string', env: 'CHAOS_SUBSCRIPTIONS', fallback: '5' },
  'receiver-outage': { type: 'string', env: 'CHAOS_RECEIVER_OUTAGE', fallback: '60s', seconds: true },
  down: { type: 'string', env: 'CHAOS_DOWN', fallback: '5s', seconds: true },
  'drain-timeout': { type: 'string', env: 'CHAOS_DRAIN_TIMEOUT', fallback: '300s', seconds: true },
  'request-timeout': { type: 'string', env: 'CHAOS_REQUEST_TIMEOUT', fallback: '10s', seconds: true },
  seed: { type: 'string', env: 'CHAOS_SEED', fallback: '1' },
  'min-accepted': { type: 'string', env: 'CHAOS_MIN_ACCEPTED', fallback: '0.5' },
  'max-seconds': { type: 'string', env: 'CHAOS_MAX_SECONDS', fallback: '1200' },
  stack: { type: 'string', env: 'CHAOS_STACK', fallback: 'local' },
  broker: { type: 'string', env: 'CHAOS_BROKER', fallback: 'redis' },
  'update-share': { type: 'string', env: 'CHAOS_UPDATE_SHARE', fallback: '0.25' },
  pause: { type: 'string', env: 'CHAOS_PAUSE', fallback: '10s', seconds: true },
  'pause-target': { type: 'string', env: 'CHAOS_PAUSE_TARGET', fallback: 'plain' },
} as const;

export const usage = `npm run chaos -- [options]
  --duration 180s          steady load this long (also 3m, or plain seconds)
  --rate 30                orders (events) per second, round-robin over the two API processes
  --subscriptions 5        HTTP subscriptions, one receiver process each
  --broker redis           also one Redis Streams subscription (its consumer in a receiver process
                           of its own), and the broker SIGKILLed mid-load; none: HTTP only
  --update-share 0.25      this share of accepted orders is moved pending → paid → shipped, so the
                           ordered subscription (order.created and order.updated, per key) gets
                           several events per key
  --pause 10s              one subscription is paused this long, then resumed (at most 70 % of its slot)
  --pause-target plain     plain: an HTTP subscription to order.created; ordered: the ordered one
  --receiver-outage 60s    one receiver refuses connections this long (at most a third of the run)
  --down 5s                how long a killed process stays down before its restart
  --drain-timeout 300s     after the load, wait at most this long for every delivery
  --request-timeout 10s    an order POST slower than this counts as refused
  --min-accepted 0.5       fail when less than this share of the asked rate was accepted (0: never)
  --seed 1                 which worker/API is killed, and the order of the kill faults
  --max-seconds 1200       hard limit: everything is stopped, exit 2
  --stack local            local: the Temporal dev server; cluster: two Temporal nodes on PostgreSQL
                           behind a balancer, and the Temporal fault kills one node
  --out file.json          also write the report as JSON
  --verbose                every line the service processes print
Each flag also reads CHAOS_<NAME> (e.g. CHAOS_DURATION=60s).`;

function positive(name: string, text: string, integer: boolean): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) throw new Error(`--${name}: "${text}" must be a positive ${integer ? 'integer' : 'number'}`);
  return v;
}

function share(name: string, text: string): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v < 0 || v > 1) throw new Error(`--${name}: "${text}" must be a number from 0 to 1`);
  return v;
}

/** Reads the flags (or `argv`) and CHAOS_* variables; throws a message naming the bad option. */
export function parseOptions(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): ChaosOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.keys(flags).map((k) => [k, { type: 'string' as const }])),
      out: { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const raw = (name: keyof typeof flags): string => {
    const v = (values as Record<string, string | boolean | undefined>)[name];
    return typeof v === 'string' ? v : (env[flags[name].env] ?? flags[name].fallback);
  };
  const subscriptions = positive('subscriptions', raw('subscriptions'), true);
  if (subscriptions > 50) throw new Error('--subscriptions: at most 50 (one receiver process each)');
  const durationS = seconds('duration', raw('duration'));
  if (durationS < 30) throw new Error('--duration: at least 30s, so the faults fit one after another');
  const out = typeof values.out === 'string' ? values.out : env.CHAOS_OUT;
  const stack = raw('stack');
  if (stack !== 'local' && stack !== 'cluster') throw new Error(`--stack: "${stack}" must be local or cluster`);
  const broker = raw('broker');
  if (broker !== 'redis' && broker !== 'none') throw new Error(`--broker: "${broker}" must be redis or none`);
  const pauseTarget = raw('pause-target');
  if (pauseTarget !== 'plain' && pauseTarget !== 'ordered') throw new Error(`--pause-target: "${pauseTarget}" must be plain or ordered`);
  return {
    durationS,
    rate: positive('rate', raw('rate'), false),
    subscriptions,
    receiverOutageS: seconds('receiver-outage', raw('receiver-outage')),
    downS: seconds('down', raw('down')),
    drainTimeoutS: seconds('drain-timeout', raw('drain-timeout')),
    requestTimeoutS: seconds('request-timeout', raw('request-timeout')),
    seed: positive('seed', raw('seed'), true),
    minAccepted: share('min-accepted', raw('min-accepted')),
    maxSeconds: positive('max-seconds', raw('max-seconds'), true),
    // Short, so a receiver down for 60 s gets its backlog within the drain window (sum: 3 min 8 s over 10 attempts).
    retrySchedule: '1s,2s,5s,10s,20s,30s,30s,30s,60s',
    maxAttempts: 10,
    verbose: values.verbose === true || env.CHAOS_VERBOSE === 'true',
    out: out || undefined,
    stack,
    broker,
    updateShare: share('update-share', raw('update-share')),
    pauseS: seconds('pause', raw('pause')),
    pauseTarget,
  };
}
