/**
 * Options of the soak (`npm run soak -- --duration 2m --prefill ci`) and the prefill sizes the
 * bench's `--prefill` shares. Flags only; pure, so it is unit-tested.
 */
import { parseArgs } from 'node:util';
import { seconds } from '../../stack/harness/stats';

/** How many documents the prefill writes per collection. */
export type PrefillSpec = Record<'attempts' | 'events' | 'orders', number>;

/** The named prefill sizes. */
export const prefillPresets: Record<string, PrefillSpec> = {
  none: { attempts: 0, events: 0, orders: 0 },
  ci: { attempts: 100_000, events: 20_000, orders: 20_000 },
  full: { attempts: 1_000_000, events: 200_000, orders: 200_000 },
};

/** `none`, `ci`, `full` or `attempts=1000000,events=200000,orders=200000` (missing keys are 0). */
export function parsePrefill(text: string): PrefillSpec {
  const preset = prefillPresets[text.trim()];
  if (preset) return { ...preset };
  const spec: PrefillSpec = { attempts: 0, events: 0, orders: 0 };
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(attempts|events|orders)=(\d{1,8})$/.exec(part);
    if (!m) throw new Error(`--prefill: "${part}" must be attempts=<n>, events=<n> or orders=<n> (or a preset: ${Object.keys(prefillPresets).join(', ')})`);
    spec[m[1] as keyof PrefillSpec] = Number(m[2]);
  }
  // Events are the prefilled orders' order.created events, so there is an order behind each.
  if (spec.events > spec.orders) throw new Error(`--prefill: events (${spec.events}) cannot exceed orders (${spec.orders})`);
  if (spec.attempts > 0 && spec.events === 0) throw new Error('--prefill: attempts need events to belong to');
  return spec;
}

const flags = {
  duration: ['30m', 'steady load this long (30m, 2m, 90s)'],
  rate: ['20', 'orders per second offered, open loop'],
  subscriptions: ['5', 'soak subscriptions to order.created, on one loopback receiver'],
  prefill: ['none', 'none, ci, full, or attempts=<n>,events=<n>,orders=<n>'],
  'probe-interval': ['5s', 'how often the list endpoints are probed'],
  'request-timeout': ['10s', 'client timeout of an order POST and of a probe'],
  'max-list-p99': [undefined, "fail when a list endpoint's p99 in any minute is above this (ms)"],
  'max-delivery-p99': [undefined, 'fail when the delivery p99 in any minute is above this (ms)'],
  'min-accepted': [undefined, 'fail when accepted ÷ due orders is below this (e.g. 0.999)'],
  'max-drift': [undefined, 'fail when a list or delivery p99 of the last minute ÷ the first is above this (e.g. 1.5)'],
  'drain-timeout': ['120s', 'after the load, wait at most this long for the deliveries'],
  'retention-days': [undefined, 'RETENTION_DAYS of the service, a pass every minute: the prefill (3 days) older than this is deleted under the load'],
  'retention-busy-share': [undefined, "RETENTION_BUSY_SHARE of the service (above 0, at most 1; default: the service's)"],
  'retention-after': ['0s', 'with --retention-days: start retention this far into the load, so the minutes before are its baseline'],
  'max-seconds': [undefined, 'hard limit for the whole run (default: duration + prefill allowance + drain + 10 min)'],
  out: [undefined, 'also write the results as JSON to this file'],
} as const satisfies Record<string, readonly [string | undefined, string]>;

/** The usage text of `--help`, from the flag table. */
export const usage = [
  'usage: npm run soak -- [options]',
  ...Object.entries(flags).map(([k, [def, help]]) => `  --${k.padEnd(20)} ${help}${def ? ` (default ${def})` : ''}`),
  '  --verbose              every line the service processes print',
  '',
].join('\n');

function positive(flag: string, text: string, max: number): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v <= 0 || v > max) throw new Error(`--${flag}: "${text}" must be a number above 0, at most ${max}`);
  return v;
}

/** The soak's options, as read from its flags. */
export type SoakOptions = Exclude<ReturnType<typeof parseOptions>, 'help'>;

/** Reads the flags; 'help' for --help; throws a message naming the bad option. */
export function parseOptions(argv: string[] = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: { ...Object.fromEntries(Object.keys(flags).map((k) => [k, { type: 'string' as const }])), verbose: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) return 'help' as const;
  const raw = (name: keyof typeof flags): string | undefined => (values as Record<string, string | undefined>)[name] ?? flags[name][0];
  const num = (name: keyof typeof flags, max: number) => (raw(name) === undefined ? undefined : positive(name, raw(name)!, max));
  const duration = (name: keyof typeof flags) => seconds(name, raw(name)!);
  const prefill = parsePrefill(raw('prefill')!);
  const retentionDays = raw('retention-days');
  if (retentionDays !== undefined && !(/^\d{1,5}$/.test(retentionDays) && Number(retentionDays) >= 1)) throw new Error(`--retention-days: "${retentionDays}" must be a whole number of days, at least 1`);
  // Prefill allowance: about 1,600 documents a second on the embedded database, with room to spare.
  const maxSeconds = duration('duration') + (prefill.attempts + prefill.events + prefill.orders) / 500 + duration('drain-timeout') + 600;
  return {
    durationS: duration('duration'),
    rate: positive('rate', raw('rate')!, 10_000),
    subscriptions: Math.round(positive('subscriptions', raw('subscriptions')!, 50)),
    prefill,
    probeIntervalS: duration('probe-interval'),
    requestTimeoutS: duration('request-timeout'),
    maxListP99Ms: num('max-list-p99', 1e9),
    maxDeliveryP99Ms: num('max-delivery-p99', 1e9),
    minAccepted: num('min-accepted', 1),
    maxDrift: num('max-drift', 1000),
    drainTimeoutS: duration('drain-timeout'),
    retentionDays: retentionDays === undefined ? undefined : Number(retentionDays),
    retentionBusyShare: num('retention-busy-share', 1),
    retentionAfterS: /^0+[smh]?$/.test(raw('retention-after')!.trim()) ? 0 : duration('retention-after'),
    maxSeconds: raw('max-seconds') === undefined ? Math.ceil(maxSeconds) : duration('max-seconds'),
    out: raw('out'),
    verbose: values.verbose === true,
  };
}
