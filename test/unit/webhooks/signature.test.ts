import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verify, WebhookVerificationError } from '../../../src/receiver';
import { signatureHeaders, standardWebhooksSignature, xSignature } from '../../../src/webhooks/signature';

// Standard Webhooks' published test vector.
const kat = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('signatures', () => {
  it('matches the Standard Webhooks known-answer vector', () => {
    expect(standardWebhooksSignature(kat.secret, kat.id, kat.timestamp, kat.body)).toBe(kat.signature);
  });

  it('X-Signature is sha256= lowercase hex HMAC-SHA256 of the raw body, keyed with the whole secret', () => {
    const independent = createHmac('sha256', Buffer.from(kat.secret, 'utf8')).update(Buffer.from(kat.body, 'utf8')).digest('hex');
    expect(xSignature(kat.secret, kat.body)).toBe(`sha256=${independent}`);
    expect(xSignature(kat.secret, kat.body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('headers verify with the standardwebhooks library, and carry both secrets during a rotation', () => {
    const previous = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ event: 'order.created', id: 'evt_0000000000000000abcd', data: { order_id: 1, total: 2 } });
    const headers = signatureHeaders({ id: 'evt_0000000000000000abcd', timestamp: now, body, secrets: [kat.secret, previous] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['X-Signature-Previous']).toBe(xSignature(previous, body));
    // Each secret alone verifies with the stock library (it accepts any matching entry).
    for (const s of [kat.secret, previous]) {
      expect(new Webhook(s).verify(body, headers as unknown as Record<string, string>)).toEqual(JSON.parse(body));
    }
  });

  it('the receiver kit accepts a good delivery and rejects tampering, wrong secrets and stale timestamps', () => {
    const now = 1_700_000_000_000;
    const body = '{"event":"webhook.test","id":"evt_0000000000000000abcd","data":{}}';
    const headers = signatureHeaders({ id: 'evt_0000000000000000abcd', timestamp: now / 1000, body, secrets: [kat.secret] });
    expect(verify(body, headers as unknown as Record<string, string>, kat.secret, { now: () => now })).toEqual(JSON.parse(body));
    const h = headers as unknown as Record<string, string>;
    expect(() => verify(body.replace('{}', '{"x":1}'), h, kat.secret, { now: () => now })).toThrow(WebhookVerificationError);
    expect(() => verify(body, h, 'whsec_' + Buffer.alloc(24).toString('base64'), { now: () => now })).toThrow('no matching signature');
    expect(() => verify(body, h, kat.secret, { now: () => now + 301_000 })).toThrow('webhook-timestamp too old or too new');
  });

  it('refuses a delivery whose timestamped headers were stripped, however good its X-Signature', () => {
    const now = 1_700_000_000_000;
    const body = '{"event":"webhook.test","id":"evt_0000000000000000abcd","data":{}}';
    const headers = signatureHeaders({ id: 'evt_0000000000000000abcd', timestamp: now / 1000, body, secrets: [kat.secret] }) as unknown as Record<string, string>;
    const stripped = { 'x-signature': headers['X-Signature'] ?? headers['x-signature'] ?? '' };
    expect(stripped['x-signature']).toBe(xSignature(kat.secret, body));
    expect(() => verify(body, stripped, kat.secret, { now: () => now })).toThrow('missing webhook-id, webhook-timestamp or webhook-signature header');
    expect(() => verify(body, { ...headers, 'webhook-timestamp': undefined }, kat.secret, { now: () => now })).toThrow(WebhookVerificationError);
    expect(() => verify(body, {}, kat.secret)).toThrow('missing webhook-id, webhook-timestamp or webhook-signature header');
  });

  it("verifies the seed's X-Signature alone only when asked to", () => {
    const body = '{"event":"webhook.test","id":"evt_0000000000000000abcd","data":{}}';
    const xOnly = { scheme: 'x-signature' } as const;
    expect(verify(body, { 'x-signature': xSignature(kat.secret, body) }, kat.secret, xOnly)).toEqual(JSON.parse(body));
    expect(() => verify(body, { 'x-signature': 'sha256=' + '0'.repeat(64) }, kat.secret, xOnly)).toThrow('no matching signature');
    expect(() => verify(body, {}, kat.secret, xOnly)).toThrow('missing x-signature header');
  });
});
