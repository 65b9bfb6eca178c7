import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** One service of docker-compose.yml, as far as the checks read it. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: string[] | Record<string, { condition: string }>;
  volumes?: string[];
  profiles?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** docker-compose.yml parsed with its anchors and merge keys resolved, and its raw text. */
export function readCompose(): { compose: ComposeFile; text: string } {
  const text = readFileSync(`${root}docker-compose.yml`, 'utf8');
  return { compose: parse(text, { merge: true }) as ComposeFile, text };
}

/** The services a service waits for, with the condition it waits on. */
export function dependencies(service: ComposeService): Record<string, string> {
  const deps = service.depends_on ?? [];
  return Array.isArray(deps) ? Object.fromEntries(deps.map((d) => [d, 'service_started'])) : Object.fromEntries(Object.entries(deps).map(([k, v]) => [k, v.condition]));
}

/** Names of the variables the file requires from the shell (`${NAME:?message}`). */
export function requiredShellVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*):\?/g)].map((m) => m[1] ?? ''))].sort();
}
