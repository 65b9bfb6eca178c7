import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The pages a reader follows from the README, relative to the repository root. */
export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs, 'bench/README.md', 'bench/RESULTS.md'].filter((p) => existsSync(join(root, p)));
}

/** `markdown` without its fenced code blocks (each line kept, blanked, so line numbers hold). */
export function withoutFences(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchors for the headings of `markdown`, duplicates numbered as GitHub numbers them. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The link targets of `markdown` outside code: inline links and images. */
export function linkTargets(markdown: string): string[] {
  const text = withoutFences(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** Every `npm run <script>` in `markdown`, code included. */
export function npmScripts(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/\bnpm run ([\w:.-]+)/g)].map((m) => m[1]!))];
}

/**
 * The shell block that follows `<!-- walkthrough:<name> ... -->` in the README or a page of
 * docs/, with each `replacements` key replaced (ports and data directory: the rest runs exactly
 * as written).
 */
export function docWalkthrough(root: string, name: string, replacements: Record<string, string>): string {
  const marker = new RegExp(`<!-- walkthrough:${name}\\b[^>]*-->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``);
  const blocks = docPages(root).flatMap((page) => {
    const block = marker.exec(readFileSync(join(root, page), 'utf8'))?.[1];
    return block === undefined ? [] : [block];
  });
  if (blocks.length !== 1) throw new Error(`expected one walkthrough:${name} shell block in the README and docs/, found ${blocks.length}`);
  return Object.entries(replacements).reduce((script, [from, to]) => script.split(from).join(to), blocks[0]!);
}

/** Runs a walkthrough with bash (stopping at the first failing command) and returns what it printed. */
export async function runWalkthrough(root: string, script: string, timeoutMs = 60_000): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: root, timeout: timeoutMs });
  return stdout;
}
