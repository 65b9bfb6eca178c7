/** The Temporal floor of the service's shape, measured in the same run (bench/floor/run.ts as a child process). */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Ctx } from '../context';

const floorScript = fileURLToPath(new URL('../../floor/run.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

/** Runs `npm run bench:floor` with the given shape and returns its deliveries/s and CPU per delivery. */
export function floor(ctx: Ctx, events: number, subs: number, shape: 'event' | 'children' = 'event') {
  ctx.log(`floor: ${events} events × ${subs} subscriptions, ${shape} shape, on its own dev server`);
  return new Promise<{ shape: string; events: number; subs: number; deliveriesPerSecond: number; cpuMsPerDelivery: number }>((resolve, reject) => {
    execFile(tsx, [floorScript, '--events', String(events), '--subs', String(subs), '--shape', shape], { timeout: 300_000 }, (err, stdout) => {
      if (err) return reject(new Error(`floor run failed: ${err.message}`));
      const rate = /: ([\d.]+) deliveries\/s/.exec(stdout);
      const cpu = /temporal ([\d.]+) ms, worker\+client ([\d.]+) ms/.exec(stdout);
      if (!rate || !cpu) return reject(new Error(`floor output not understood: ${stdout.slice(0, 300)}`));
      resolve({ shape, events, subs, deliveriesPerSecond: Number(rate[1]), cpuMsPerDelivery: Math.round((Number(cpu[1]) + Number(cpu[2])) * 100) / 100 });
    });
  });
}
