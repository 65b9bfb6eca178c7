import { describe, expect, it } from 'vitest';
import { parseOptions } from '../lib/options';
import { prefillPresets } from '../soak/options';

describe('bench options', () => {
  it('run on an empty database unless --prefill names what to write first', () => {
    expect(parseOptions([]).prefill).toEqual(prefillPresets.none);
    expect(parseOptions(['--prefill', 'ci']).prefill).toEqual(prefillPresets.ci);
    expect(parseOptions(['--prefill', 'attempts=10,events=5,orders=5']).prefill).toEqual({ attempts: 10, events: 5, orders: 5 });
    expect(() => parseOptions(['--prefill', 'lots'])).toThrow(/--prefill/);
  });

  it('takes the stack profile and how many APIs and workers, one of each on the default stack by default', () => {
    expect(parseOptions([])).toMatchObject({ stack: 'local', apis: 1, workers: 1 });
    expect(parseOptions(['--stack', 'cluster', '--apis', '2', '--workers', '2'])).toMatchObject({ stack: 'cluster', apis: 2, workers: 2 });
    expect(() => parseOptions(['--stack', 'k8s'])).toThrow(/--stack/);
    expect(() => parseOptions(['--apis', '0'])).toThrow(/--apis/);
  });

  it('swaps in the smaller defaults with --quick, where a flag does not set the value', () => {
    expect(parseOptions([])).toMatchObject({ events: 200, subs: 5, maxSeconds: 1200, quick: false });
    expect(parseOptions(['--quick'])).toMatchObject({ events: 20, subs: 5, maxSeconds: 300, quick: true });
    expect(parseOptions(['--quick', '--events', '50'])).toMatchObject({ events: 50 });
    expect([parseOptions([]).noisyEvents, parseOptions(['--quick']).noisyEvents]).toEqual([5000, 200]);
  });

  it('runs the chosen scenarios in the fixed order, less the skipped ones, and refuses unknown names', () => {
    expect(parseOptions(['--scenarios', 'floor,ingest0,throughput', '--skip', 'floor']).scenarios).toEqual(['ingest0', 'throughput']);
    expect(() => parseOptions(['--scenarios', 'ingest,nope'])).toThrow(/unknown: nope/);
    // The broker destination's run comes right after the HTTP one at M=1 it is set beside.
    expect(parseOptions(['--scenarios', 'slow,broker,fanouts']).scenarios).toEqual(['fanouts', 'broker', 'slow']);
    // The noisy neighbour follows the slow receiver, the other scenario of one subscription's load beside others.
    expect(parseOptions(['--scenarios', 'outage,noisy,slow']).scenarios).toEqual(['slow', 'noisy', 'outage']);
    expect(() => parseOptions(['--scenarios', 'idle', '--skip', 'idle'])).toThrow(/no scenario/);
  });
});
