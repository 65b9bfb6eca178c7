import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface DockerStage {
  from: string;
  name?: string;
  instructions: { keyword: string; args: string }[];
}

/** The Dockerfile's stages and their instructions (continuation lines joined, comments dropped). */
export function dockerfileStages(text = readFileSync(`${root}Dockerfile`, 'utf8')): DockerStage[] {
  const stages: DockerStage[] = [];
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const [from = '', as, name] = rest;
      stages.push({ from, ...(as?.toUpperCase() === 'AS' && name ? { name } : {}), instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** A COPY's sources and destination; `from`: the stage it copies out of, if any. */
export function copyArgs(args: string): { from?: string; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { ...(from ? { from } : {}), sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
}

/** The exec-form CMD of the last stage. */
export function dockerCmd(stages: DockerStage[]): string[] {
  const cmd = stages.at(-1)?.instructions.findLast((i) => i.keyword === 'CMD');
  return cmd ? (JSON.parse(cmd.args) as string[]) : [];
}

/** The commands docker-compose.yml gives the services built from the Dockerfile. */
export function composeBuiltCommands(): Record<string, string[]> {
  const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8')) as { services: Record<string, { build?: unknown; command?: string[] }> };
  return Object.fromEntries(Object.entries(compose.services).filter(([, s]) => s.build !== undefined).map(([name, s]) => [name, s.command ?? []]));
}
