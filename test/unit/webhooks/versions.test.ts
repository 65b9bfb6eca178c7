import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { deprecationHeaders, minimumSunsetDays, subscribeRoutes, versionDeprecations } from '../../../src/webhooks/versions';
import { deprecatedContract } from '../../support/deprecated-contract';

const contract = loadContract();
const paths = contract.paths as Record<string, { post?: { operationId?: string } }>;

describe('the subscribe route table', () => {
  it('routes exactly the contract’s createSubscription* operations, at their paths', () => {
    const inContract = Object.entries(paths)
      .filter(([, item]) => item.post?.operationId?.startsWith('createSubscription'))
      .map(([path, item]) => `${item.post!.operationId} ${path}`)
      .sort();
    expect(subscribeRoutes.map((r) => `${r.operationId} ${r.path}`).sort()).toEqual(inContract);
  });

  it('gives each versioned path its own version', () => {
    for (const r of subscribeRoutes.filter((x) => /\/v\d+\//.test(x.path))) expect(r.path).toBe(`/api/webhooks/v${r.version}/subscribe`);
  });
});

describe('versionDeprecations', () => {
  it('finds no deprecated version in the contract as shipped', () => {
    expect(versionDeprecations(contract).size).toBe(0);
  });

  it('reads deprecated: true, x-deprecated-at and x-sunset of a version’s subscribe operations', () => {
    const d = versionDeprecations(deprecatedContract(1, '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z'));
    expect([...d.values()]).toEqual([{ version: 1, deprecatedAt: new Date('2026-01-01T00:00:00Z'), sunset: new Date('2026-12-31T00:00:00Z') }]);
  });

  it('refuses a version whose operations disagree (the v1 path deprecated, its unversioned alias not)', () => {
    const copy = deprecatedContract(1, '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
    const legacy = (copy.paths as Record<string, { post: Record<string, unknown> }>)['/api/webhooks/subscribe']!.post;
    delete legacy.deprecated;
    delete legacy['x-deprecated-at'];
    delete legacy['x-sunset'];
    expect(() => versionDeprecations(copy)).toThrow(/disagree on its deprecation/);
  });

  it(`refuses a sunset less than ${minimumSunsetDays} days after the deprecation`, () => {
    expect(() => versionDeprecations(deprecatedContract(2, '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z'))).toThrow(/createSubscriptionV2: x-sunset must be at least 180 days/);
  });

  it('refuses a deprecated operation without dates, and dates without deprecated: true', () => {
    expect(() => versionDeprecations(deprecatedContract(2, 'soon', '2026-12-31T00:00:00Z'))).toThrow(/x-deprecated-at must be a date-time/);
    const copy = deprecatedContract(2, '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
    (copy.paths as Record<string, { post: Record<string, unknown> }>)['/api/webhooks/v2/subscribe']!.post.deprecated = false;
    expect(() => versionDeprecations(copy)).toThrow(/not deprecated: true/);
  });
});

describe('deprecationHeaders', () => {
  const d = { version: 1 as const, deprecatedAt: new Date('2026-01-01T00:00:00.900Z'), sunset: new Date('2026-12-31T00:00:00Z') };
  const headers = deprecationHeaders(d, 'createSubscriptionV1');

  it('writes Deprecation as an RFC 9745 date: @ and whole Unix seconds', () => {
    expect(headers.Deprecation).toBe('@1767225600');
  });

  it('writes Sunset as an RFC 8594 HTTP-date (IMF-fixdate)', () => {
    expect(headers.Sunset).toBe('Thu, 31 Dec 2026 00:00:00 GMT');
  });

  it('links the operation’s documentation as rel="deprecation" and rel="sunset"', () => {
    expect(headers.Link).toBe('</docs#operation/createSubscriptionV1>; rel="deprecation"; type="text/html", </docs#operation/createSubscriptionV1>; rel="sunset"; type="text/html"');
  });

  it('matches the patterns the contract declares for them', () => {
    const declared = (contract.components as { headers: Record<string, { schema: { pattern?: string } }> }).headers;
    expect(headers.Deprecation).toMatch(new RegExp(declared.Deprecation!.schema.pattern!));
    expect(headers.Sunset).toMatch(new RegExp(declared.Sunset!.schema.pattern!));
  });
});
