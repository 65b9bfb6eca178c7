import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** An AES-256 key and the id stored beside what it sealed, so keys can rotate. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** Thrown when a stored secret cannot be opened: its key is not configured, or it was altered. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

const prefix = 'enc:v1:';
const ivBytes = 12;
const tagBytes = 16;

/**
 * Seals signing secrets for storage with AES-256-GCM (node:crypto) under the current key, bound
 * to the document they belong to (additional data), and opens what any configured key sealed.
 * Stored form: `enc:v1:<key id>:<iv>:<ciphertext+tag>` (base64url). Without a current key it
 * stores plaintext, as before encryption was configured, and opens plaintext as it is.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;

  constructor(
    private readonly current: SecretKey | undefined,
    previous: readonly SecretKey[] = [],
  ) {
    this.keys = new Map([...previous, ...(current ? [current] : [])].map((k) => [k.id, k.key]));
  }

  /** Whether secrets are sealed at all (a current key is configured). */
  get sealing(): boolean {
    return this.current !== undefined;
  }

  /** The stored form of `secret`, bound to `owner` (the subscription id). */
  seal(secret: string, owner: string): string {
    if (!this.current) return secret;
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(owner));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${prefix}${this.current.id}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** The secret a stored value holds; plaintext (stored before encryption) is returned as it is. */
  open(stored: string, owner: string): string {
    if (!stored.startsWith(prefix)) return stored;
    const [id, iv, sealed] = stored.slice(prefix.length).split(':');
    const key = id === undefined ? undefined : this.keys.get(id);
    if (!key || !iv || !sealed) throw new SecretBoxError(`secret sealed with key ${id ?? '?'}, which is not configured (SECRET_ENCRYPTION_KEY or SECRET_ENCRYPTION_KEYS)`);
    const bytes = Buffer.from(sealed, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(owner));
      decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - tagBytes)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`secret of ${owner} does not open with key ${id}: altered, or moved from another document`);
    }
  }

  /** True when `stored` is not sealed under the current key (plaintext, or an older key): the migration re-seals it. */
  isStale(stored: string): boolean {
    return this.current !== undefined && !stored.startsWith(`${prefix}${this.current.id}:`);
  }
}

/** True when `stored` is a sealed value (under any key), not plaintext. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(prefix);
}

/** Parses `<key id>:<base64 of 32 bytes>`; the id is letters, digits, `-` and `_`. */
export function parseSecretKey(raw: string): SecretKey | string {
  const match = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/=_-]+)$/.exec(raw.trim());
  if (!match) return 'must look like <key id>:<base64 of 32 random bytes>';
  const key = Buffer.from(match[2]!, match[2]!.includes('-') || match[2]!.includes('_') ? 'base64url' : 'base64');
  if (key.length !== 32) return `the key must be 32 bytes (base64 of 32 random bytes), got ${key.length}`;
  return { id: match[1]!, key };
}
