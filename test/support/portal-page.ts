import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { startReceiver, type TestReceiver } from './receiver';

/** The browser test's viewports: a desktop and the narrowest phone the portal supports. */
export const desktop = { width: 1280, height: 800 };
export const phone = { width: 360, height: 740 };

/** Screenshots at phone and desktop width into `dir`; at 360 px nothing may scroll sideways. */
export async function shoot(page: Page, dir: string, name: string): Promise<void> {
  await page.setViewportSize(phone);
  // A string expression: this file compiles for Node, without the DOM's types.
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name} fits 360 px`).toBeLessThanOrEqual(phone.width);
  await page.screenshot({ path: `${dir}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(desktop);
  await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: true });
}

/** The id of the test event the page just reported sending (another than `previous`). */
export async function sentEventId(page: Page, previous?: string): Promise<string> {
  const notice = page.getByTestId('detail-notice');
  let id: string | undefined;
  await expect
    .poll(async () => {
      id = /Test event (evt_\w+) sent\./.exec((await notice.textContent()) ?? '')?.[1];
      return id !== undefined && id !== previous;
    }, { timeout: 15_000 })
    .toBe(true);
  return id!;
}

/** The chart's width as a share of its panel's (1: it spans the panel). */
export async function chartWidthShare(page: Page): Promise<number> {
  const chart = await page.getByTestId('stats-chart').locator('.uplot').boundingBox();
  const panel = await page.getByTestId('stats-panel').boundingBox();
  return chart && panel ? chart.width / panel.width : 0;
}

/** A receiver that can hold its answers back (the event stays pending) until released. */
export interface HoldingReceiver {
  receiver: TestReceiver;
  hold(): void;
  release(): void;
}

/** A receiver answering `status()` at reply time ('thanks' on 200, else 'receiver is down'). */
export async function startHoldingReceiver(status: () => number): Promise<HoldingReceiver> {
  let holding = false;
  const held: (() => void)[] = [];
  const receiver = await startReceiver((_req, res) => {
    const reply = () => {
      const code = status();
      res.writeHead(code, { 'content-type': 'text/plain' });
      res.end(code === 200 ? 'thanks' : 'receiver is down');
    };
    if (holding) held.push(reply);
    else reply();
  });
  return {
    receiver,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const reply of held.splice(0)) reply();
    },
  };
}
