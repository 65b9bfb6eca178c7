import type { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger';
import { runWorkerUntilStopped } from '../../../src/worker/run-worker';

/** A worker whose run the test ends: `fail` rejects it, `shutdown` resolves it. */
function fakeWorker() {
  let state = 'INITIALIZED';
  let end!: (err?: Error) => void;
  const worker = {
    getState: () => state,
    run: () => {
      state = 'RUNNING';
      return new Promise<void>((resolve, reject) => (end = (err) => ((state = 'STOPPED'), err ? reject(err) : resolve())));
    },
    shutdown: () => end(),
    fail: (err: Error) => end(err),
  };
  return worker;
}

describe('runWorkerUntilStopped with one worker per lane', () => {
  it('stops the other lane when one fails, builds both again, and stops both when asked', async () => {
    const built: Array<ReturnType<typeof fakeWorker>[]> = [];
    let stop!: () => void;
    const stopping = new Promise<void>((resolve) => (stop = resolve));
    const running = runWorkerUntilStopped({
      address: 'unused',
      logger: createLogger('silent', 'test'),
      stopping,
      maxBackoffMs: 1,
      shared: () => Promise.resolve({} as never),
      create: () => {
        const pair = [fakeWorker(), fakeWorker()];
        built.push(pair);
        return Promise.resolve(pair as unknown as Worker[]);
      },
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(built).toHaveLength(1);
    built[0]![1]!.fail(new Error('bulk lane lost Temporal'));
    await new Promise((r) => setTimeout(r, 20));
    expect(built[0]!.map((w) => w.getState())).toEqual(['STOPPED', 'STOPPED']);
    expect(built).toHaveLength(2);
    stop();
    await running;
    expect(built[1]!.map((w) => w.getState())).toEqual(['STOPPED', 'STOPPED']);
  });
});
