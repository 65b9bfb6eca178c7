import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { assertHeaders, isForbiddenHeader, maskHeaders, openHeaders, sealHeaders } from '../../../src/subscriptions/custom-headers';
import { SecretBox } from '../../../src/subscriptions/secret-box';

describe('custom headers', () => {
  it.each(['Host', 'content-length', 'Content-Type', 'X-Signature', 'x-signature-previous', 'Webhook-Id', 'webhook-anything', 'Connection', 'keep-alive', 'Proxy-Authorization', 'TE', 'trailer', 'Transfer-Encoding', 'Upgrade', 'Content-Encoding', 'content-language', 'Content-Range', 'Expect', 'HTTP2-Settings'])(
    'forbids %s',
    (name) => expect(isForbiddenHeader(name)).toBe(true),
  );
  it.each(['Authorization', 'X-Api-Key', 'X-Signed-By', 'Webhooks', 'Tenant', 'Contentful-Id'])('allows %s', (name) => expect(isForbiddenHeader(name)).toBe(false));

  it('names every refused field, and a name given twice in different case', () => {
    try {
      assertHeaders({ 'X-Ok': '1', Host: 'x', 'x-ok': '2' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).errors?.map((f) => f.field)).toEqual([['headers', 'Host'], ['headers', 'x-ok']]);
    }
  });

  it('seals values bound to the subscription, masks them, and opens them for sending', () => {
    const box = new SecretBox({ id: 'k', key: randomBytes(32) });
    const stored = sealHeaders(box, 'sub_1', { 'X-Api-Key': 'secret-value' });
    expect(JSON.stringify(stored)).not.toContain('secret-value');
    expect(maskHeaders(stored)).toEqual({ 'X-Api-Key': '********' });
    expect(openHeaders(box, 'sub_1', stored)).toEqual({ 'X-Api-Key': 'secret-value' });
    expect(() => openHeaders(box, 'sub_2', stored)).toThrow();
    // A forbidden name stored before the rule is never sent.
    expect(openHeaders(box, 'sub_1', [...stored, { name: 'Content-Type', value: 'text/plain' }, { name: 'Content-Encoding', value: 'gzip' }])).toEqual({ 'X-Api-Key': 'secret-value' });
  });
});
