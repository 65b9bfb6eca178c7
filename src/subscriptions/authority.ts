import type { Principal } from '../auth/api-keys';
import { actsForAllOwners } from '../auth/ownership';
import { missingScopes } from '../auth/scopes';
import { DomainError } from '../errors/domain-error';
import type { FieldIssue } from '../errors/field-issue';
import type { SubscriptionDoc } from './repository';

/**
 * What `principal` lacks to change `sub`: every scope its event types need, and for an
 * `all_owners` subscription the authority to act for every owner. Empty when it may.
 */
export function missingAuthority(
  principal: Pick<Principal, 'scopes' | 'portal'>,
  sub: Pick<SubscriptionDoc, 'events' | 'all_owners'>,
  eventScopes: ReadonlyMap<string, readonly string[]>,
): string[] {
  const scopes = new Set(sub.events.flatMap((type) => missingScopes(principal.scopes, eventScopes.get(type) ?? [])));
  const missing = [...scopes].map((s) => `the scope ${s} (for its event types)`);
  if (sub.all_owners && !actsForAllOwners(principal)) missing.push('the admin scope (it receives every owner\'s events)');
  return missing;
}

/**
 * 403 naming what is missing unless `principal` holds every authority that creating `sub` would
 * need: whoever may change a subscription decides where its data goes.
 */
export function assertMayChange(
  principal: Pick<Principal, 'scopes' | 'portal'>,
  sub: Pick<SubscriptionDoc, '_id' | 'events' | 'all_owners'>,
  eventScopes: ReadonlyMap<string, readonly string[]>,
): void {
  const missing = missingAuthority(principal, sub, eventScopes);
  if (!missing.length) return;
  const errors: FieldIssue[] = [{ field: ['subscription_id'], message: `changing it needs ${missing.join(' and ')}` }];
  throw DomainError.forbidden(`Subscription ${sub._id} may only be changed by a caller that could create it; this one lacks ${missing.join(' and ')}`, errors);
}
