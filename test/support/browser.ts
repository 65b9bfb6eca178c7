import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../../tools/lib/chromium';

/**
 * Headless Chromium as `npm test`'s pretest provisions it (tools/ensure-browser.ts); the flags
 * keep it off the network: this machine has no outside access and Chromium would keep trying.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium(process.env);
  if (!executablePath) {
    throw new Error('chromium: not found. Run `npm run browser` (installs Debian\'s chromium as root) or set CHROMIUM_PATH to a Chromium/Chrome executable.');
  }
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A response a test expects to fail: same path (origin ignored) and status. */
export interface ExpectedFailure {
  path: string;
  status: number;
}

/**
 * Records everything that must fail a browser test: console errors, uncaught page errors, failed
 * requests and responses of 400 or more, except the ones listed in `expected` (mutable: a test
 * adds to it before the step that provokes them).
 */
export function watchPage(page: Page, expected: ExpectedFailure[] = []): string[] {
  const problems: string[] = [];
  const isExpected = (url: string, status: number) => expected.some((e) => new URL(url).pathname === e.path && e.status === status);
  page.on('response', (res) => {
    if (res.status() < 400) return;
    if (!isExpected(res.url(), res.status())) problems.push(`response ${res.status()} ${res.request().method()} ${res.url()}`);
  });
  page.on('requestfailed', (req) => problems.push(`request failed ${req.method()} ${req.url()}: ${req.failure()?.errorText ?? ''}`));
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // Chromium logs every failed load; an expected one (already checked above) is not a console error of the page's.
    const url = msg.location().url;
    if (url && msg.text().startsWith('Failed to load resource') && expected.some((e) => new URL(url).pathname === e.path && msg.text().includes(`status of ${e.status}`))) return;
    problems.push(`console error: ${msg.text()} (${url})`);
  });
  return problems;
}
