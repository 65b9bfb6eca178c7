import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { assertMayChange, missingAuthority } from '../../../src/subscriptions/authority';

const eventScopes = new Map<string, readonly string[]>([
  ['order.created', ['resources:read']],
  ['webhook.test', []],
]);
const session = { keyId: 'key_1', id: 'ps_1', ownerId: 'o', grants: [], issuedAt: new Date(), expiresAt: new Date() };

describe('who may change a subscription', () => {
  it('needs the scopes of every event type it has', () => {
    expect(missingAuthority({ scopes: ['webhooks:write'] }, { events: ['webhook.test'] }, eventScopes)).toEqual([]);
    expect(missingAuthority({ scopes: ['webhooks:write'] }, { events: ['webhook.test', 'order.created'] }, eventScopes)).toEqual(['the scope resources:read (for its event types)']);
    expect(missingAuthority({ scopes: ['webhooks:write', 'resources:read'] }, { events: ['order.created'] }, eventScopes)).toEqual([]);
  });

  it('needs admin authority for an all-owners subscription: an admin key or an administrator portal session', () => {
    const allOwners = { events: ['webhook.test' as const], all_owners: true as const };
    expect(missingAuthority({ scopes: ['webhooks:write', 'resources:read'] }, allOwners, eventScopes)).toEqual(["the admin scope (it receives every owner's events)"]);
    expect(missingAuthority({ scopes: ['admin'] }, allOwners, eventScopes)).toEqual([]);
    expect(missingAuthority({ scopes: ['webhooks:write'], portal: { ...session, admin: true } }, allOwners, eventScopes)).toEqual([]);
    expect(missingAuthority({ scopes: ['webhooks:write'], portal: { ...session, admin: false } }, allOwners, eventScopes)).toHaveLength(1);
  });

  it('refuses with a 403 naming everything missing', () => {
    try {
      assertMayChange({ scopes: ['webhooks:write'] }, { _id: 'sub_1', events: ['order.created'], all_owners: true }, eventScopes);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).kind).toBe('forbidden');
      expect((e as DomainError).message).toContain('resources:read');
      expect((e as DomainError).message).toContain('admin');
    }
  });
});
