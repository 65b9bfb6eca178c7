import type { Principal } from './api-keys';

/** True when `principal` may read and change an object its `ownerId` created: its own, or any with `admin`. */
export function mayAccess(principal: Pick<Principal, 'ownerId' | 'scopes'>, ownerId: string | undefined): boolean {
  return principal.scopes.includes('admin') || ownerId === principal.ownerId;
}

/** The owner a listing is narrowed to: none for an admin key, which sees every owner's objects. */
export function listingOwner(principal: Pick<Principal, 'ownerId' | 'scopes'>): string | undefined {
  return principal.scopes.includes('admin') ? undefined : principal.ownerId;
}

/**
 * True when what `principal` subscribes receives every owner's events (`all_owners`): admin keys,
 * and administrator portal sessions acting for them.
 */
export function actsForAllOwners(principal: Pick<Principal, 'scopes' | 'portal'>): boolean {
  return principal.scopes.includes('admin') || principal.portal?.admin === true;
}
