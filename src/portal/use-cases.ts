import { ADMIN_OWNER, type Principal } from '../auth/api-keys';
import { mayAccess } from '../auth/ownership';
import { DomainError } from '../errors/domain-error';
import type { PortalSessionCreate, PortalSessionCreated, PortalSessionInfo, PortalSessionsExpire, PortalSessionsExpired } from '../contract/types';
import type { Logger } from '../logger';
import type { PortalRevocations } from './revocations';
import type { PortalGrant, PortalSessions } from './sessions';

export interface PortalDeps {
  sessions: PortalSessions;
  revocations: PortalRevocations;
  logger: Logger;
  /** Origin of portal links; the request's own origin when unset. */
  publicUrl: string | undefined;
  /** Where administrator sessions link to delivery workflows. */
  temporalUiUrl: string | undefined;
  temporalNamespace: string;
}

/** The portal scopes a key can hand on: what it holds itself, never more. */
const delegable: PortalGrant[] = ['webhooks:read', 'webhooks:write', 'resources:read'];

/**
 * Opens a portal session for the caller's owner, or (admin keys) any owner. The session grants
 * the caller's own `webhooks:*` and `resources:read` scopes; an admin key's session for the
 * admin owner is an administrator session, which also reads alerts.
 */
export async function createPortalSession(
  deps: PortalDeps,
  principal: Principal,
  body: PortalSessionCreate | undefined,
  requestOrigin: string,
): Promise<PortalSessionCreated> {
  const isAdmin = principal.scopes.includes('admin');
  const ownerId = sessionOwner(principal, body?.owner_id, 'open a portal session');
  const admin = isAdmin && ownerId === ADMIN_OWNER;
  const grants: PortalGrant[] = [...delegable.filter((g) => isAdmin || principal.scopes.includes(g)), ...(admin ? (['alerts:read'] as const) : [])];
  const { session, token } = await deps.sessions.issue({ ownerId, keyId: principal.keyId, grants, admin, expiresInSeconds: body?.expires_in ?? 3600 });
  // The token is a credential: logged by id only.
  deps.logger.info({ portalSession: session.id, ownerId, admin, byKey: principal.keyId, expiresAt: session.expiresAt }, 'portal session opened');
  return {
    id: session.id,
    owner_id: ownerId,
    url: `${deps.publicUrl ?? requestOrigin}/portal#token=${token}`,
    token,
    expires_at: session.expiresAt.toISOString(),
    admin,
  };
}

/**
 * Ends every portal session opened for the owner until now (a leaked link, a person who left):
 * the same owner rules as opening one.
 */
export async function expirePortalSessions(deps: PortalDeps, principal: Principal, body: PortalSessionsExpire | undefined): Promise<PortalSessionsExpired> {
  const ownerId = sessionOwner(principal, body?.owner_id, "end another owner's portal sessions");
  const before = await deps.revocations.expireAll(ownerId, new Date());
  deps.logger.info({ ownerId, byKey: principal.keyId, before }, 'portal sessions ended');
  return { owner_id: ownerId, expired_before: before.toISOString() };
}

/** The owner a session request is about: the key's own, or (admin keys only) the one named. */
function sessionOwner(principal: Principal, named: string | undefined, action: string): string {
  const ownerId = named ?? principal.ownerId;
  if (!mayAccess(principal, ownerId)) {
    throw DomainError.forbidden(`Only an admin key may ${action} for another owner (this key's owner is ${principal.ownerId}).`);
  }
  return ownerId;
}

/** What the calling portal session is and may do, for the portal to lay itself out. */
export function currentPortalSession(deps: PortalDeps, principal: Principal): PortalSessionInfo {
  const session = principal.portal;
  if (!session) throw DomainError.forbidden('This operation takes a portal session token, not an API key.');
  return {
    id: session.id,
    owner_id: session.ownerId,
    expires_at: session.expiresAt.toISOString(),
    admin: session.admin,
    grants: session.grants,
    ...(session.admin && deps.temporalUiUrl ? { temporal_ui_url: deps.temporalUiUrl, temporal_namespace: deps.temporalNamespace } : {}),
  };
}
