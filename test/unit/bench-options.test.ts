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
});
