import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { WebhookServiceClient } from '../../../src/client';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { launchChromium, watchPage, type ExpectedFailure } from '../../support/browser';
import { chartWidthShare, desktop, phone, sentEventId, shoot as shootInto, startHoldingReceiver, type HoldingReceiver } from '../../support/portal-page';
import type { TestReceiver } from '../../support/receiver';

// Browser globals of the functions passed to page.evaluate: this file compiles for Node, they run in Chromium.
interface PageElement {
  tabIndex: number;
  labels?: { length: number } | null;
  getAttribute(name: string): string | null;
  textContent: string | null;
  outerHTML: string;
}
declare const document: {
  activeElement: PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare const sessionStorage: { getItem(key: string): string | null };
declare const navigator: { clipboard: { readText(): Promise<string> } };

const shots = 'test-results/portal';
const current = '/api/webhooks/v1/portal-sessions/current';
// Bounded waits for deliveries through the real worker and Temporal.
const deliveryWait = { timeout: 45_000, interval: 250 };

describe('the subscriber portal in a real browser', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: TestReceiver;
  let holding: HoldingReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let answer = 200;
  const pages: { page: Page; problems: string[] }[] = [];

  async function mint(client: WebhookServiceClient, body: components['schemas']['PortalSessionCreate'] = {}) {
    const { data, error, response } = await client.POST('/api/webhooks/v1/portal-sessions', { body });
    expect(response.status, JSON.stringify(error)).toBe(201);
    return data!;
  }

  // Failures the main page may see from a step that provokes them; added to before that step.
  const mainExpected: ExpectedFailure[] = [];

  async function openPage(expected: ExpectedFailure[] = []): Promise<Page> {
    const p = await context.newPage();
    const found = watchPage(p, expected);
    pages.push({ page: p, problems: found });
    return p;
  }

  const shoot = (p: Page, name: string) => shootInto(p, shots, name);

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    // A retry waits 10 minutes: the retrying attempt stays retrying until the test redelivers.
    // A held answer must not time out before the test releases it.
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '10m', DELIVERY_JITTER: '0', DELIVERY_TIMEOUT: '30s', TEMPORAL_UI_URL: 'http://127.0.0.1:8233' });
    worker = await startTestWorker(api);
    // While held, the receiver keeps its answers back: the event stays pending before its first attempt ends.
    holding = await startHoldingReceiver(() => answer);
    receiver = holding.receiver;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.baseUrl });
    page = await openPage(mainExpected);
    problems = pages[0]!.problems;
  });
  afterEach(() => {
    // Any console error, page error, failed request or unexpected ≥ 400 response fails the test it happened in.
    for (const p of pages) expect(p.problems).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await receiver?.close();
    await api?.close();
  });

  it('opens a minted link, hides the token, creates a subscription and shows its secret once', async () => {
    const { client: ownerKey } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'customer-portal');
    const session = await mint(ownerKey);
    await page.goto(session.url);
    await page.getByRole('heading', { name: 'Subscriptions' }).waitFor();
    expect(await page.getByTestId('session-owner').textContent()).toContain('customer-portal');
    // The token leaves the address bar (and history) and lives in sessionStorage only.
    expect(page.url()).toBe(`${api.baseUrl}/portal`);
    expect(await page.evaluate(() => sessionStorage.getItem('webhooks-portal-token'))).toBe(session.token);
    await page.getByTestId('subscriptions-empty').waitFor();
    await shoot(page, 'subscriptions-empty');

    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description').fill('ERP test receiver');
    // This owner's key lacks resources:read: order events are listed but cannot be picked.
    expect(await page.getByRole('checkbox', { name: /order\.created/ }).isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: /webhook\.test/ }).check();
    await page.getByText('Schema and example of webhook.test').click();
    expect(await page.getByLabel('Example payload of webhook.test').textContent()).toMatch(/^\{/);
    await shoot(page, 'create-form');
    await page.getByRole('button', { name: 'Create subscription' }).click();

    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    const value = await secret.inputValue();
    expect(value).toMatch(/^whsec_/);
    expect(await page.getByTestId('secret-notice').textContent()).toContain('you will not see it again');
    await shoot(page, 'secret-once');
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByTestId('secret-notice').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(value);
    await page.getByTestId('subscription-list').getByText(receiver.url).waitFor();
    expect(problems).toEqual([]);
  });

  it('lists the test event with its type, state and payload; follows pending, delivered, retrying and redelivered', async () => {
    await page.getByRole('button', { name: `Manage ${receiver.url}` }).click();
    await page.getByTestId('subscription-detail').waitFor();

    holding.hold();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const first = await sentEventId(page);
    const firstGroup = page.locator(`[data-testid="event-group"][data-event-id="${first}"]`);
    // The receiver has not answered yet: the event is listed, pending, with no attempt.
    await expect.poll(() => firstGroup.getAttribute('data-state').catch(() => null), deliveryWait).toBe('pending');
    expect(await firstGroup.getByTestId('event-type').textContent()).toBe('webhook.test');
    expect(await firstGroup.getByTestId('event-state').textContent()).toBe('pending');
    expect(await firstGroup.getByTestId('event-attempts').textContent()).toBe('0 attempts');
    await firstGroup.getByTestId('no-attempts').waitFor();
    // The payload is collapsed until opened.
    const payload = firstGroup.getByLabel(`Payload of ${first}`);
    expect(await payload.isVisible()).toBe(false);
    await firstGroup.getByText('Payload', { exact: true }).click();
    await payload.waitFor();
    const shown = JSON.parse((await payload.textContent())!) as Record<string, unknown>;
    expect(shown).toMatchObject({ message: 'This is a test event from the webhook service.' });
    await shoot(page, 'event-pending');

    holding.release();
    await expect.poll(() => firstGroup.getAttribute('data-state').catch(() => null), deliveryWait).toBe('delivered');
    expect(await firstGroup.getByTestId('event-attempts').textContent()).toBe('1 attempt');
    // What the page shows is what the receiver got as the envelope's data.
    expect((JSON.parse(receiver.received[0]!.body) as { data: unknown }).data).toEqual(shown);
    const delivered = firstGroup.getByTestId('attempt-row').first();
    expect(await delivered.getAttribute('data-outcome')).toBe('delivered');
    expect(await delivered.textContent()).toContain('200');
    expect(receiver.received.length).toBe(1);

    answer = 500;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const second = await sentEventId(page, first);
    const secondGroup = page.locator(`[data-testid="event-group"][data-event-id="${second}"]`);
    // The panel polls by itself: no reload between the attempt and the page showing it.
    await expect.poll(() => secondGroup.getAttribute('data-state').catch(() => null), deliveryWait).toBe('retrying');
    expect(await secondGroup.getByTestId('event-state').textContent()).toBe('retrying');
    expect(await secondGroup.getByTestId('event-type').textContent()).toBe('webhook.test');
    const failing = secondGroup.getByTestId('attempt-row').first();
    expect(await failing.getAttribute('data-outcome')).toBe('http_error');
    expect(await failing.textContent()).toContain('500');
    expect(await failing.textContent()).toContain('receiver is down');
    expect(await failing.getByTestId('next-attempt').textContent()).not.toBe('—');
    // The timeline says why it waits and until when, and what comes next.
    await secondGroup.getByText('Timeline', { exact: true }).click();
    const wait = secondGroup.getByTestId('timeline-wait');
    await wait.waitFor();
    expect(await wait.getAttribute('data-reason')).toBe('backoff');
    expect(await wait.textContent()).toMatch(/^Backoff 1 of 6 \(retry schedule\) until /);
    const next = secondGroup.getByTestId('timeline-next');
    expect(await next.getAttribute('data-final')).toBe('false');
    expect(await next.textContent()).toMatch(/^Next: attempt 2 at /);
    await shoot(page, 'attempts-retrying');

    // The list shows the failing subscription as failing, not as a plain "active".
    await page.getByRole('button', { name: '← All subscriptions' }).click();
    const listed = page.getByTestId('subscription-list').locator('li', { hasText: receiver.url });
    await listed.getByTestId('subscription-health').waitFor();
    expect(await listed.getByTestId('subscription-health').textContent()).toBe('failing');
    expect(await listed.getByTestId('subscription-failing-since').textContent()).toMatch(/^Every delivery has failed since /);
    // The last hour: the first test event delivered, the second not yet.
    await expect.poll(() => listed.getByTestId('subscription-success-rate').textContent().catch(() => null), deliveryWait).toBe('Last hour: 50% delivered (1 of 2 attempts).');
    await shoot(page, 'subscriptions-failing');
    await page.getByRole('button', { name: `Manage ${receiver.url}` }).click();
    await expect.poll(() => secondGroup.getAttribute('data-state').catch(() => null), deliveryWait).toBe('retrying');
    await secondGroup.getByText('Timeline', { exact: true }).click();
    await secondGroup.getByTestId('timeline-next').waitFor();

    answer = 200;
    await secondGroup.getByRole('button', { name: `Redeliver ${second}` }).click();
    await page.getByText(`Redelivery of ${second} scheduled.`).waitFor();
    await expect.poll(() => secondGroup.getAttribute('data-state'), deliveryWait).toBe('delivered');
    expect(await secondGroup.getByTestId('event-state').textContent()).toBe('delivered');
    expect(await secondGroup.getByTestId('attempt-row').count()).toBe(2);
    expect(await secondGroup.getByTestId('event-attempts').textContent()).toBe('2 attempts');
    // The open timeline follows: the redelivery's series, delivered, final.
    await expect.poll(() => secondGroup.getByTestId('timeline-next').getAttribute('data-final'), deliveryWait).toBe('true');
    expect(await secondGroup.getByTestId('timeline-next').textContent()).toBe('Final: delivered');
    expect(await secondGroup.getByTestId('timeline-wait').count()).toBe(0);
    // Newest first: the second test event above the first.
    expect(await page.getByTestId('event-group').evaluateAll((cards: PageElement[]) => cards.map((c) => c.getAttribute('data-event-id')))).toEqual([second, first]);
  });

  it('shows the 24-hour chart across the page width with its summary, and filters attempts by outcome', async () => {
    // The stats panel reloads after each action; the chart is a uPlot canvas beside a text summary.
    await page.getByTestId('stats-chart').locator('canvas').first().waitFor();
    // The chart spans its panel and follows the window's width, down to a phone's and back.
    const widthShare = () => chartWidthShare(page);
    expect(await widthShare()).toBeGreaterThan(0.95);
    expect((await page.getByTestId('stats-panel').boundingBox())!.width).toBeGreaterThan(1000);
    await page.setViewportSize(phone);
    await expect.poll(widthShare, deliveryWait).toBeGreaterThan(0.95);
    expect((await page.getByTestId('stats-chart').locator('.uplot').boundingBox())!.width).toBeLessThanOrEqual(phone.width);
    await page.setViewportSize(desktop);
    await expect.poll(async () => (await page.getByTestId('stats-chart').locator('.uplot').boundingBox())?.width ?? 0, deliveryWait).toBeGreaterThan(1000);
    await expect.poll(() => page.getByTestId('stats-summary').textContent(), deliveryWait).toMatch(/\d+ attempts?, \d+ delivered/);
    await page.getByLabel('Outcome').selectOption('http_error');
    await expect.poll(async () => (await page.getByTestId('attempt-row').evaluateAll((rows: PageElement[]) => rows.map((r) => r.getAttribute('data-outcome')))).join(','), deliveryWait).toBe('http_error');
    // Grouped by event, with the event's type and where its delivery stands now.
    expect(await page.getByTestId('event-group').getByTestId('event-type').textContent()).toBe('webhook.test');
    expect(await page.getByTestId('event-group').getAttribute('data-state')).toBe('delivered');
    await shoot(page, 'subscription-detail');
    await page.getByLabel('Outcome').selectOption('');
    await expect.poll(() => page.getByTestId('attempt-row').count(), deliveryWait).toBe(3);
  });

  it('is usable with the keyboard: every control is focusable and named; pause and resume with Tab and Enter', async () => {
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('button, a[href], input, select, textarea, summary')]
        .filter((el) => {
          const labelled = el.labels?.length || el.getAttribute('aria-label') || el.textContent?.trim();
          return el.tabIndex < 0 || !labelled;
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);

    const tabTo = async (name: string) => {
      await page.locator('body').focus();
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === name) return;
      }
      throw new Error(`no control named ${name} within 60 Tabs`);
    };
    await tabTo('Pause');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('subscription-status').textContent(), deliveryWait).toBe('paused');
    // A pause holds: the detail says how many deliveries and since when (none yet).
    expect(await page.getByTestId('subscription-held').textContent()).toMatch(/^0 deliveries held since .*Resume sends them in the order they were emitted/);
    await tabTo('Resume');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('subscription-status').textContent(), deliveryWait).toBe('active');
    expect(await page.getByTestId('subscription-held').count()).toBe(0);
  });

  it('edits the description, rotates the secret showing the overlap, and deletes after confirmation', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Description').fill('ERP receiver, renamed');
    // A filter with an unknown operator is refused, naming where; nothing is saved.
    const filter = page.getByLabel(/^Filter/);
    await filter.fill('{"type": {"$startsWit": "webhook."}}');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.getByTestId('form-error').textContent()).toContain('$startsWit');
    // That 422 was the point: take it off the page's problems, and only it.
    const refused = problems.splice(0);
    expect(refused).toHaveLength(2);
    expect(refused.every((p) => p.includes('422'))).toBe(true);
    await filter.fill('{"type": {"$startsWith": "webhook."}}');
    await page.getByRole('radio', { name: /^v2/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('detail-notice').getByText('Saved.').waitFor();
    await page.getByTestId('subscription-detail').getByText('ERP receiver, renamed').waitFor();
    expect(await page.getByTestId('subscription-filter').textContent()).toBe('{"type":{"$startsWith":"webhook."}}');
    await page.getByTestId('subscription-detail').getByText('envelope v2').waitFor();

    // Custom headers: set in the form, shown by name with the value masked, never echoed.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Custom headers').fill('X-Tenant: acme\nX-Api-Key: portal-gateway-key');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('detail-notice').getByText('Saved.').waitFor();
    const shownHeaders = await page.getByTestId('subscription-headers').textContent();
    expect(shownHeaders).toContain('X-Tenant: ********');
    expect(shownHeaders).toContain('X-Api-Key: ********');
    expect(await page.content()).not.toContain('portal-gateway-key');

    // Authentication: OAuth 2.0 set in the form; the detail names the client, never the secret; editing keeps it.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('combobox', { name: /^Authentication/ }).selectOption('oauth2_client_credentials');
    await page.getByLabel('Token URL').fill('https://auth.example.com/oauth2/token');
    await page.getByLabel('Client id').fill('portal-client');
    await page.getByLabel('Client secret').fill('portal-client-secret-value');
    await page.getByLabel('Scope (optional)').fill('webhooks.write');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('detail-notice').getByText('Saved.').waitFor();
    expect(await page.getByTestId('subscription-auth').textContent()).toBe(
      'Authentication: OAuth 2.0 client credentials: client portal-client at https://auth.example.com/oauth2/token, scope webhooks.write (secret hidden)',
    );
    expect(await page.content()).not.toContain('portal-client-secret-value');
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByRole('combobox', { name: /^Authentication/ }).inputValue()).toBe('keep');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('detail-notice').getByText('Saved.').waitFor();
    await page.getByTestId('subscription-auth').getByText('client portal-client').waitFor();
    // Retry schedule and rate limit: the service's schedule shown until one is set; a bound broken is refused naming the field.
    expect(await page.getByTestId('subscription-retry').textContent()).toContain('the service’s schedule');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Retry waits').fill('10s, 7h');
    await page.getByLabel('Attempts in all').fill('3');
    await page.getByLabel(/^Rate limit/).fill('5');
    await page.getByLabel(/^Most deliveries at once/).fill('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.getByTestId('form-error').textContent()).toContain('retry/schedule/1');
    const refusedRetry = problems.splice(0);
    expect(refusedRetry.length).toBeGreaterThan(0);
    expect(refusedRetry.every((p) => p.includes('422'))).toBe(true);
    await page.getByLabel('Retry waits').fill('10s, 1m');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // A notice from an earlier save may still be up: wait for the new schedule itself.
    await expect.poll(() => page.getByTestId('subscription-retry').textContent(), deliveryWait).toContain('10s, 1m');
    const shownRetry = await page.getByTestId('subscription-retry').textContent();
    expect(shownRetry).toContain('3 attempts');
    expect(shownRetry).toContain('its own schedule');
    expect(await page.getByTestId('subscription-rate-limit').textContent()).toContain('5 deliveries per second');
    expect(await page.getByTestId('subscription-max-in-flight').textContent()).toContain('3 deliveries at once');
    // Emptied: back to the service's schedule, no rate limit and the service's bound on POSTs at once.
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('Retry waits').inputValue()).toBe('10s, 1m');
    await page.getByLabel('Retry waits').fill('');
    await page.getByLabel('Attempts in all').fill('');
    await page.getByLabel(/^Rate limit/).fill('');
    await page.getByLabel(/^Most deliveries at once/).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByTestId('subscription-retry').textContent(), deliveryWait).toContain('the service’s schedule');
    expect(await page.getByTestId('subscription-rate-limit').count()).toBe(0);
    expect(await page.getByTestId('subscription-max-in-flight').count()).toBe(0);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const overlap = page.getByLabel('Old secret keeps signing for');
    expect(await overlap.inputValue()).toBe('86400');
    await overlap.selectOption({ label: '7 days' });
    await shoot(page, 'rotate-picker');
    const rotatedAt = Date.now();
    await page.getByRole('button', { name: 'Rotate now' }).click();
    await page.getByTestId('secret-notice').waitFor();
    expect(await page.getByTestId('secret-value').inputValue()).toMatch(/^whsec_/);
    const shownOverlap = page.getByTestId('rotation-overlap');
    expect(await shownOverlap.textContent()).toContain('The previous secret keeps signing');
    expect(await shownOverlap.textContent()).toContain('for 7 days');
    // The end shown is the one chosen: 7 days after the rotation (give or take the request's time).
    const expiresAt = Date.parse((await shownOverlap.getAttribute('data-expires-at'))!);
    expect(Math.abs(expiresAt - (rotatedAt + 7 * 86_400_000))).toBeLessThan(60_000);
    await page.getByTestId('confirm-rotate').waitFor({ state: 'detached' });
    await shoot(page, 'secret-rotated');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('confirm-delete').waitFor();
    await page.getByRole('button', { name: 'Keep it' }).click();
    await page.getByTestId('confirm-delete').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete' }).click();
    // The detail keeps polling a retrying delivery: a poll in flight as the subscription goes is answered 404, as the contract says.
    const deletedId = (await page.getByTestId('subscription-detail').locator('code', { hasText: /^sub_/ }).first().textContent())!;
    mainExpected.push(...['events', 'attempts'].map((what) => ({ path: `/api/webhooks/v1/subscriptions/${deletedId}/${what}`, status: 404 })));
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('subscriptions-empty').waitFor();
  });

  it('creates an ed25519 subscription, shows its public key, rotates it and switches it to HMAC', async () => {
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/ed25519`);
    await page.getByRole('checkbox', { name: /webhook\.test/ }).check();
    await page.getByRole('radio', { name: /^Ed25519/ }).check();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByTestId('secret-notice').getByRole('heading', { name: 'Your public key' }).waitFor();
    const publicKey = await page.getByTestId('secret-value').inputValue();
    expect(publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(await page.getByTestId('secret-notice').textContent()).toContain('the private key never leaves the service');
    await shoot(page, 'public-key-created');
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: `Manage ${receiver.url}/ed25519` }).click();
    await page.getByTestId('subscription-detail').waitFor();
    expect(await page.getByTestId('subscription-signature').textContent()).toContain('Ed25519 (v1a)');
    expect(await page.getByTestId('public-key').textContent()).toBe(publicKey);

    // A rotation of the same scheme: a new public key, the old one signing for the overlap.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    expect(await page.getByLabel("New key's signatures").inputValue()).toBe('ed25519');
    await page.getByLabel('Old secret keeps signing for').selectOption({ label: '1 hour' });
    await page.getByRole('button', { name: 'Rotate now' }).click();
    await page.getByTestId('secret-notice').getByRole('heading', { name: 'Your new public key' }).waitFor();
    const rotated = await page.getByTestId('secret-value').inputValue();
    expect(rotated).toMatch(/^whpk_/);
    expect(rotated).not.toBe(publicKey);
    expect(await page.getByTestId('rotation-overlap').textContent()).toContain('The previous public key keeps signing');
    expect(await page.getByTestId('public-key').textContent()).toBe(rotated);
    await page.getByRole('button', { name: 'Done' }).click();

    // Switching to HMAC is a rotation too: a secret shown once, and no public key any more.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByLabel("New key's signatures").selectOption('hmac-sha256');
    await page.getByText('Switching is a rotation').waitFor();
    await shoot(page, 'rotate-switch-scheme');
    await page.getByRole('button', { name: 'Rotate now' }).click();
    await page.getByTestId('secret-notice').getByRole('heading', { name: 'Your new signing secret' }).waitFor();
    expect(await page.getByTestId('secret-value').inputValue()).toMatch(/^whsec_/);
    expect(await page.getByTestId('subscription-signature').textContent()).toContain('HMAC-SHA256 (v1)');
    expect(await page.getByTestId('public-key').count()).toBe(0);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('subscriptions-empty').waitFor();
  });

  it('creates a RabbitMQ subscription, shows its target but never its credentials, and keeps them on edit', async () => {
    const broker = 'amqp://127.0.0.1:5672/orders';
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(broker);
    await page.getByRole('combobox', { name: /^Deliver by/ }).selectOption('rabbitmq');
    await page.getByLabel('Exchange').fill('webhooks');
    await page.getByLabel('Routing key').fill('orders.created');
    await page.getByLabel('Broker user').fill('portal-broker-user');
    await page.getByLabel('Broker password').fill('portal-broker-password');
    await page.getByRole('checkbox', { name: /webhook\.test/ }).check();
    await shoot(page, 'create-rabbitmq');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByTestId('secret-notice').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: `Manage ${broker}` }).click();
    await page.getByTestId('subscription-detail').waitFor();
    expect(await page.getByTestId('subscription-destination').textContent()).toBe('Destination: RabbitMQ: exchange "webhooks", routing key "orders.created" (credentials hidden)');
    expect(await page.content()).not.toContain('portal-broker-password');
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByRole('combobox', { name: /^Deliver by/ }).inputValue()).toBe('keep');
    await page.getByLabel('Description').fill('the broker');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('subscription-detail').waitFor();
    expect(await page.getByTestId('subscription-destination').textContent()).toContain('exchange "webhooks"');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('subscriptions-empty').waitFor();
  });

  it('creates a Kafka subscription, shows its topic but never its SASL credentials', async () => {
    const broker = 'kafka://127.0.0.1:9092';
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(broker);
    await page.getByRole('combobox', { name: /^Deliver by/ }).selectOption('kafka');
    await page.getByLabel('Topic').fill('shop-events');
    await page.getByLabel('More bootstrap brokers').fill('127.0.0.2:9092');
    await page.getByRole('combobox', { name: 'SASL mechanism' }).selectOption('scram-sha-512');
    await page.getByLabel('SASL user').fill('portal-kafka-user');
    await page.getByLabel('SASL password').fill('portal-kafka-password');
    await page.getByRole('checkbox', { name: /webhook\.test/ }).check();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByTestId('secret-notice').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: `Manage ${broker}` }).click();
    await page.getByTestId('subscription-detail').waitFor();
    expect(await page.getByTestId('subscription-destination').textContent()).toBe('Destination: Kafka: topic "shop-events", also via 127.0.0.2:9092 (SASL SCRAM-SHA-512, credentials hidden)');
    expect(await page.content()).not.toContain('portal-kafka-password');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('subscriptions-empty').waitFor();
  });

  it('creates an SQS subscription, shows its region but never its keys', async () => {
    const queue = 'http://127.0.0.1:9324/000000000000/shop-events.fifo';
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(queue);
    await page.getByRole('combobox', { name: /^Deliver by/ }).selectOption('sqs');
    await page.getByLabel('Region').fill('eu-west-1');
    await page.getByLabel('Access key ID').fill('AKIDPORTALSQS0000000');
    await page.getByLabel('Secret access key').fill('portal-sqs-secret-key');
    await page.getByRole('checkbox', { name: /webhook\.test/ }).check();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByTestId('secret-notice').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: `Manage ${queue}` }).click();
    await page.getByTestId('subscription-detail').waitFor();
    expect(await page.getByTestId('subscription-destination').textContent()).toBe('Destination: Amazon SQS: the queue in the URL, region eu-west-1 (credentials hidden)');
    expect(await page.content()).not.toContain('portal-sqs-secret-key');
    expect(await page.content()).not.toContain('AKIDPORTALSQS0000000');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('subscriptions-empty').waitFor();
  });

  it('creates a subscription ordered per key, which the API and the detail page show', async () => {
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/ordered`);
    await page.getByRole('checkbox', { name: /webhook\.test/ }).check();
    await page.getByRole('checkbox', { name: /Deliver in order per key/ }).check();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByTestId('secret-notice').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: `Manage ${receiver.url}/ordered` }).click();
    await page.getByTestId('subscription-detail').waitFor();
    expect(await page.getByTestId('subscription-ordering').textContent()).toContain('In order per key');
    const id = (await page.getByTestId('subscription-detail').locator('code', { hasText: /^sub_/ }).first().textContent())!;
    const { client: ownerKey } = await api.clientWith(['webhooks:read'], 'customer-portal');
    const read = await ownerKey.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
    expect(read.data?.ordering).toBe('per_key');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('button', { name: `Manage ${receiver.url}/ordered` }).waitFor({ state: 'detached' });
  });

  it('shows an administrator session the alerts', async () => {
    const { client: adminKey } = await api.clientWith(['admin'], 'admin');
    const { data: sub } = await adminKey.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['webhook.test'] } });
    const session = await mint(adminKey);
    expect(session.admin).toBe(true);
    const admin = await openPage();
    await admin.goto(session.url);
    await admin.getByTestId('alerts-panel').waitFor();
    await admin.getByRole('heading', { name: 'Alerts' }).waitFor();
    await admin.locator('[data-testid="alerts-empty"], [data-testid="alerts-panel"] li').first().waitFor();
    expect(await admin.getByTestId('session-owner').textContent()).toContain('administrator');
    await shoot(admin, 'admin-alerts');
    // Administrator sessions link to the Temporal UI, filtered to the subscription's workflows.
    await admin.getByRole('button', { name: `Manage ${receiver.url}` }).click();
    const link = admin.getByRole('link', { name: 'Delivery workflows of this subscription in the Temporal UI' });
    expect(await link.getAttribute('href')).toBe(`http://127.0.0.1:8233/namespaces/default/workflows?query=${encodeURIComponent(`WebhookSubscriptionIds="${sub!.id}"`)}`);
    await admin.close();
  });

  it('says clearly when the link is missing, altered or expired', async () => {
    const { client: ownerKey } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'customer-portal');
    const session = await mint(ownerKey);
    const unauthorized = [{ path: current, status: 401 }];

    // A fresh context: no token kept in this tab's sessionStorage.
    const missing = await openPage();
    await missing.goto(`${api.baseUrl}/portal`);
    expect(await missing.getByTestId('session-problem').textContent()).toContain('Open this page with the link you were given');

    const altered = await openPage(unauthorized);
    const sig = session.token.slice(-4);
    const tampered = session.token.slice(0, -4) + (sig === 'AAAA' ? 'BBBB' : 'AAAA');
    await altered.goto(`${api.baseUrl}/portal#token=${tampered}`);
    await altered.getByText('This portal link has expired or is not valid — ask for a new link.').waitFor();
    expect(altered.url()).toBe(`${api.baseUrl}/portal`);

    const expired = await openPage(unauthorized);
    await expired.goto(`${api.baseUrl}/portal#token=${await api.expiredPortalToken('customer-portal')}`);
    await expired.getByText('This portal link has expired or is not valid — ask for a new link.').waitFor();
    await shoot(expired, 'link-expired');
  });
});
