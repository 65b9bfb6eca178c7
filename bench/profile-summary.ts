/**
 * Sums a V8 .cpuprofile's self time by package (or project file) and by function, for reading
 * a `bench --cpu-prof` run without a viewer: `npx tsx bench/profile-summary.ts <file or directory> [top]`
 * (a directory: its largest profile, the main thread's).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `pkg:express`, `src/http/app.ts`, `node:internal/...` or `(program)`: where a frame's code lives. */
function bucketOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`;
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return `pkg:${pkg[1]}`;
  const own = /\/((?:src|activities|workflows|generated)\/.*)$/.exec(path);
  if (own) return own[1]!;
  return path.startsWith('node:') ? path.split('/').slice(0, 2).join('/') : path;
}

function main(): void {
  const [target, topArg] = process.argv.slice(2);
  if (!target) throw new Error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile or directory> [top]');
  const file = statSync(target).isDirectory() ? largestProfile(target) : target;
  const top = Number(topArg ?? 30);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id)!;
    total += us;
    const bucket = bucketOf(callFrame.url, callFrame.functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const fn = `${callFrame.functionName || '(anonymous)'} ${bucket}:${callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const print = (title: string, m: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}\n`);
    }
  };
  process.stdout.write(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n`);
  print('self time by package / file', buckets);
  print('self time by function', functions);
}

function largestProfile(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(dir, f));
  if (!files.length) throw new Error(`no .cpuprofile in ${dir}`);
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

main();
