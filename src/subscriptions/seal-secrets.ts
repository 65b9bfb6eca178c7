import type { SubscriptionRepository } from './repository';
import type { SecretBox } from './secret-box';

/**
 * Seals every stored signing secret that is not sealed under the current key: plaintext from
 * before encryption was configured, or an older key's. Each subscription is rewritten only if
 * its secrets are still what was read (a rotation in between wins, and is sealed already).
 * Idempotent; returns how many subscriptions it rewrote.
 */
export async function sealStoredSecrets(subscriptions: SubscriptionRepository, box: SecretBox): Promise<number> {
  if (!box.sealing) return 0;
  let rewritten = 0;
  for await (const doc of subscriptions.allSecrets()) {
    if (!doc.secrets.some((s) => box.isStale(s.secret))) continue;
    const secrets = doc.secrets.map((s) => (box.isStale(s.secret) ? { ...s, secret: box.seal(box.open(s.secret, doc._id), doc._id) } : s));
    if (await subscriptions.replaceSecrets(doc._id, doc.secrets, secrets)) rewritten++;
  }
  return rewritten;
}
