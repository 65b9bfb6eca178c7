import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/lib/options';
import { prefillPresets } from '../../bench/soak/options';

describe('bench options', () => {
  it('run on an empty database unless --prefill (or BENCH_PREFILL) names what to write first', () => {
    expect(parseOptions([], {}).prefill).toEqual(prefillPresets.none);
    expect(parseOptions(['--prefill', 'ci'], {}).prefill).toEqual(prefillPresets.ci);
    expect(parseOptions([], { BENCH_PREFILL: 'attempts=10,events=5,orders=5' }).prefill).toEqual({ attempts: 10, events: 5, orders: 5 });
    expect(() => parseOptions(['--prefill', 'lots'], {})).toThrow(/--prefill/);
  });

  it('takes the stack profile and how many APIs and workers, one of each on the default stack by default', () => {
    expect(parseOptions([], {})).toMatchObject({ stack: 'local', apis: 1, workers: 1 });
    expect(parseOptions(['--stack', 'cluster', '--apis', '2', '--workers', '2'], {})).toMatchObject({ stack: 'cluster', apis: 2, workers: 2 });
    expect(parseOptions([], { BENCH_STACK: 'cluster', BENCH_WORKERS: '2' })).toMatchObject({ stack: 'cluster', workers: 2 });
    expect(() => parseOptions(['--stack', 'k8s'], {})).toThrow(/--stack/);
    expect(() => parseOptions(['--apis', '0'], {})).toThrow(/--apis/);
  });
});
