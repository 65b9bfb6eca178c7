import type { StoredHeader } from './custom-headers';
import { hasBrokerCredentials, resealDestination } from './destination';
import { maskTokenUrl, type StoredAuth } from './outgoing-auth';
import type { SubscriptionRepository } from './repository';
import type { SecretBox } from './secret-box';

/** `stored` sealed under the current key: opened (with whichever key sealed it) and sealed again, if stale. */
function fresh(box: SecretBox, owner: string, stored: string): string {
  return box.isStale(stored) ? box.seal(box.open(stored, owner), owner) : stored;
}

function resealAuth(box: SecretBox, owner: string, auth: StoredAuth): StoredAuth {
  switch (auth.type) {
    case 'bearer':
      return { ...auth, token: fresh(box, owner, auth.token) };
    case 'basic':
      return { ...auth, username: fresh(box, owner, auth.username), password: fresh(box, owner, auth.password) };
    case 'oauth2_client_credentials':
      return {
        ...auth,
        token_url: fresh(box, owner, auth.token_url),
        token_url_shown: auth.token_url_shown ?? maskTokenUrl(box.open(auth.token_url, owner)),
        client_secret: fresh(box, owner, auth.client_secret),
      };
  }
}

function authIsStale(box: SecretBox, auth: StoredAuth | undefined): boolean {
  if (!auth) return false;
  const parts = auth.type === 'bearer' ? [auth.token] : auth.type === 'basic' ? [auth.username, auth.password] : [auth.token_url, auth.client_secret];
  return parts.some((p) => box.isStale(p));
}

/**
 * Seals every stored custom header value, auth credential and broker credential not sealed under the current key,
 * as {@link sealStoredSecrets} does for signing secrets, so an old key can be retired without
 * leaving a subscription whose credentials no longer open. Each subscription is rewritten only
 * if its headers, auth and destination are still what was read. Idempotent; returns how many it rewrote.
 */
export async function sealStoredCredentials(subscriptions: SubscriptionRepository, box: SecretBox): Promise<number> {
  if (!box.sealing) return 0;
  let rewritten = 0;
  for await (const doc of subscriptions.allCredentials()) {
    const staleHeaders = doc.headers?.some((h) => box.isStale(h.value)) ?? false;
    const staleDestination = hasBrokerCredentials(doc.destination) && box.isStale(doc.destination.credentials);
    if (!staleHeaders && !authIsStale(box, doc.auth) && !staleDestination) continue;
    const headers: StoredHeader[] | undefined = doc.headers?.map((h) => ({ ...h, value: fresh(box, doc._id, h.value) }));
    const auth = doc.auth ? resealAuth(box, doc._id, doc.auth) : undefined;
    const destination = doc.destination ? resealDestination(box, doc._id, doc.destination) : undefined;
    if (await subscriptions.replaceCredentials(doc._id, { headers: doc.headers, auth: doc.auth, destination: doc.destination }, { headers, auth, destination })) rewritten++;
  }
  return rewritten;
}
