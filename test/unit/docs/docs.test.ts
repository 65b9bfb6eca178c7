import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configDocsPath, renderConfigDocs } from '../../../tools/lib/config-docs';
import { docPages, docWalkthrough, headingAnchors, linkTargets, npmScripts, withoutFences } from '../../support/docs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (page: string) => readFileSync(join(root, page), 'utf8');
const pages = docPages(root);
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** Folders whose paths the pages name in code spans, e.g. `stack/runtime/ferretdb/gin-companions.sql`. */
const repoPath = /^(?:\.ci|activities|bench|clients|docs|generated|openapi|ops|src|stack|test|tools|workflows)\/[\w./-]*$/;

describe('the README and docs/', () => {
  it('include the pages the README links to', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/delivery.md', 'docs/configuration.md', 'docs/operations.md', 'docs/reliability.md', 'docs/integrators.md', 'bench/RESULTS.md']));
  });

  it('README stays a front door of about 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(220);
  });

  it.each(pages)('%s: every relative link reaches a file, and its anchor a heading', (page) => {
    const broken: string[] = [];
    for (const target of linkTargets(read(page))) {
      if (/^[a-z][\w+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(root, page) : normalize(join(root, dirname(page), decodeURIComponent(path)));
      if (!existsSync(file)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor === undefined || !file.endsWith('.md') || statSync(file).isDirectory()) continue;
      if (!headingAnchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target}: no heading with that anchor`);
    }
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s: every `npm run <script>` it shows exists', (page) => {
    expect(npmScripts(read(page)).filter((s) => !(s in scripts))).toEqual([]);
  });

  it.each(pages)('%s: every repository path it names in code exists', (page) => {
    const spans = [...withoutFences(read(page)).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.replace(/[.,:;]$/, ''));
    const missing = spans.filter((s) => repoPath.test(s) && !s.includes('*') && !existsSync(join(root, s)));
    expect(missing).toEqual([]);
  });

  it('the two commands the README starts with are npm scripts, with what they need before them', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(scripts.start && scripts.prestart && scripts.test && scripts.pretest).toBeTruthy();
  });

  it('have the portal walkthrough that the npm start test runs', () => {
    expect(docWalkthrough(root, 'portal-link', {})).toContain('/api/webhooks/v1/portal-sessions');
  });

  it(`${configDocsPath} is what npm run docs:config writes from the config schema`, () => {
    expect(read(configDocsPath)).toBe(renderConfigDocs());
  });
});
