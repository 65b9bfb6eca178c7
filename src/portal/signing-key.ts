import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { SecretBox } from '../subscriptions/secret-box';

interface ServiceKeyDoc {
  _id: string;
  key: string;
  created_at: Date;
}

const PORTAL_KEY_ID = 'portal-session-signing';

/**
 * The key portal session tokens are signed with: `PORTAL_SESSION_SECRET` when set, otherwise a
 * random key stored once in the database (sealed by `box` like signing secrets: whoever reads the
 * database must not be able to sign sessions), so every API process agrees on it with no setup.
 */
export async function portalSigningKey(db: Db, configured: string | undefined, box: SecretBox): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  const keys = db.collection<ServiceKeyDoc>('service_keys');
  // The first process to start stores its key; the others (and later starts) read that one.
  await insertIfAbsent(keys, { _id: PORTAL_KEY_ID, key: box.seal(randomBytes(32).toString('base64'), PORTAL_KEY_ID), created_at: new Date() });
  const doc = await keys.findOne({ _id: PORTAL_KEY_ID });
  if (!doc) throw new Error('portal session signing key vanished from service_keys');
  return Buffer.from(box.open(doc.key, PORTAL_KEY_ID), 'base64');
}
