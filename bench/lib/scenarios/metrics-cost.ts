/** Scenario: what metrics cost. The same throughput run with metrics off and on, alternated. */
import { type Ctx, r3, serviceCpu } from '../context';
import { CpuMeter } from '../../../stack/harness/proc';
import { median, sleep } from '../../../stack/harness/stats';
import { throughput, warmUp } from './throughput';

type Mode = 'off' | 'on';

const endpoints = (ctx: Ctx) => [`${ctx.stack.apiUrl}/metrics`, ctx.stack.workerMetricsUrl];

/** Scrapes both /metrics endpoints every `intervalMs` until stopped. */
function scraper(ctx: Ctx, intervalMs: number): { stop: () => Promise<{ scrapes: number; failed: number; bytes: number }> } {
  let running = true;
  const tally = { scrapes: 0, failed: 0, bytes: 0 };
  const loop = (async () => {
    while (running) {
      for (const url of endpoints(ctx)) {
        const res = await fetch(url).catch(() => undefined);
        if (res?.ok) {
          tally.scrapes++;
          tally.bytes += (await res.text()).length;
        } else tally.failed++;
      }
      await sleep(intervalMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return tally;
    },
  };
}

/** CPU of the service's processes per scrape of both endpoints, with no load: what a scrape itself costs. */
async function scrapeCost(ctx: Ctx, scrapes = 20) {
  const cpu0 = ctx.meter.snapshot();
  let bytes = 0;
  for (let i = 0; i < scrapes; i++) {
    for (const url of endpoints(ctx)) bytes += (await (await fetch(url)).text()).length;
  }
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  return {
    scrapes,
    bytesPerScrape: Math.round(bytes / scrapes),
    serviceCpuMsPerScrape: r3((serviceCpu(cpu) * 1000) / scrapes),
    cpuMsPerScrapeByRole: Object.fromEntries(['api', 'worker', 'temporal', 'db', 'postgres'].map((k) => [k, r3(((cpu.perRole[k] ?? 0) * 1000) / scrapes)])),
  };
}

/**
 * `pairs` pairs of runs, metrics off and on, in A-B B-A order so a machine that drifts (load
 * from elsewhere) favours neither: API and worker restarted with METRICS_ENABLED=false or the
 * default, warmed up, then `n` events through the throughput run, both endpoints scraped every
 * 5 s while on (Prometheus's default is 15 s). The ratios are medians of the pairs' own
 * ratios. Then the cost of a scrape alone, at no load; ends with metrics on.
 */
export async function metricsCost(ctx: Ctx, n = ctx.opts.events, pairs = ctx.opts.quick ? 1 : 4) {
  const runs: { pair: number; mode: Mode; deliveriesPerSecond: number; serviceCpuMsPerDelivery: number; scrapes?: number }[] = [];
  for (let i = 0; i < pairs; i++) {
    for (const mode of i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      ctx.log(`metrics cost: ${mode} (pair ${i + 1}/${pairs}), restarting the API and worker`);
      await ctx.stack.restartServices(mode === 'off' ? { METRICS_ENABLED: 'false' } : {});
      await warmUp(ctx);
      const scraping = mode === 'on' ? scraper(ctx, 5000) : undefined;
      const r = await throughput(ctx, n, `metrics ${mode}`);
      const scrapes = await scraping?.stop();
      if (scrapes && scrapes.failed > 0) throw new Error(`metrics cost: ${scrapes.failed} scrapes failed with metrics on`);
      runs.push({ pair: i, mode, deliveriesPerSecond: r.deliveriesPerSecond, serviceCpuMsPerDelivery: r.serviceCpuMsPerDelivery, ...(scrapes ? { scrapes: scrapes.scrapes } : {}) });
    }
  }
  await ctx.stack.restartServices({});
  await warmUp(ctx);
  const scrape = await scrapeCost(ctx);
  const of = (mode: Mode, key: 'deliveriesPerSecond' | 'serviceCpuMsPerDelivery') => median(runs.filter((r) => r.mode === mode).map((r) => r[key]));
  const spread = (key: 'deliveriesPerSecond' | 'serviceCpuMsPerDelivery') => {
    const offs = runs.filter((r) => r.mode === 'off').map((r) => r[key]);
    return offs.length > 1 ? Math.round(((Math.max(...offs) - Math.min(...offs)) / median(offs)) * 1000) / 1000 : undefined;
  };
  const pairRatios = (key: 'deliveriesPerSecond' | 'serviceCpuMsPerDelivery') =>
    Array.from({ length: pairs }, (_, i) => {
      const [on, off] = (['on', 'off'] as const).map((m) => runs.find((r) => r.pair === i && r.mode === m)![key]);
      return r3(on! / off!);
    });
  return {
    events: n,
    subscriptions: ctx.subs.size,
    runs,
    off: { deliveriesPerSecond: of('off', 'deliveriesPerSecond'), serviceCpuMsPerDelivery: of('off', 'serviceCpuMsPerDelivery') },
    on: { deliveriesPerSecond: of('on', 'deliveriesPerSecond'), serviceCpuMsPerDelivery: of('on', 'serviceCpuMsPerDelivery') },
    /** Each pair's on ÷ off, and their median. */
    throughputRatios: pairRatios('deliveriesPerSecond'),
    cpuPerDeliveryRatios: pairRatios('serviceCpuMsPerDelivery'),
    throughputRatio: median(pairRatios('deliveriesPerSecond')),
    cpuPerDeliveryRatio: median(pairRatios('serviceCpuMsPerDelivery')),
    /** The noise: (max − min) ÷ median among the runs without metrics. */
    noiseOffThroughput: spread('deliveriesPerSecond'),
    noiseOffCpu: spread('serviceCpuMsPerDelivery'),
    scrape,
  };
}
