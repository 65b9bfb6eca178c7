import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../../tools/lib/chromium';

describe('finding Chromium for the browser tests', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-find-'));
  const fake = (name: string) => {
    const path = join(dir, name);
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes CHROMIUM_PATH when set, and only it', () => {
    const path = fake('my-chrome');
    expect(findChromium({ CHROMIUM_PATH: path, PATH: '' })).toBe(path);
    expect(findChromium({ CHROMIUM_PATH: join(dir, 'missing'), PATH: dir })).toBeUndefined();
  });

  it('else finds chromium-browser or google-chrome on PATH', () => {
    const empty = mkdtempSync(join(tmpdir(), 'chromium-none-'));
    const path = fake('google-chrome');
    // /usr/bin/chromium may exist on this machine: only the PATH lookups are checked here.
    const found = findChromium({ PATH: `${empty}:${dir}` });
    expect(found === path || found === '/usr/bin/chromium').toBe(true);
    rmSync(empty, { recursive: true, force: true });
  });
});
