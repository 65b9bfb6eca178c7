import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import type { SecretBox } from '../subscriptions/secret-box';
import { ServiceKeyRepository } from './service-keys';

const PORTAL_KEY_ID = 'portal-session-signing';

/**
 * The key portal session tokens are signed with: `PORTAL_SESSION_SECRET` when set, otherwise a
 * random key stored once in the database (sealed by `box` like signing secrets: whoever reads the
 * database must not be able to sign sessions), so every API process agrees on it with no setup.
 */
export async function portalSigningKey(db: Db, configured: string | undefined, box: SecretBox): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  const keys = new ServiceKeyRepository(db);
  // The first process to start stores its key; the others (and later starts) read that one.
  await keys.storeOnce({ _id: PORTAL_KEY_ID, key: box.seal(randomBytes(32).toString('base64'), PORTAL_KEY_ID), created_at: new Date() });
  const doc = await keys.find(PORTAL_KEY_ID);
  if (!doc) throw new Error('portal session signing key vanished from service_keys');
  return Buffer.from(box.open(doc.key, PORTAL_KEY_ID), 'base64');
}
