import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { PRIVATE_KEY_PREFIX, PUBLIC_KEY_PREFIX } from '../webhooks/signature';

/** A signing secret in the Standard Webhooks format: `whsec_` + base64 of 24 random bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Fewest key bytes a supplied `whsec_` secret may carry: as many as the service generates. */
export const MIN_SECRET_BYTES = 24;

/**
 * Why a supplied signing secret is refused, or undefined: it must be `whsec_` and canonical,
 * padded base64 of at least {@link MIN_SECRET_BYTES} bytes, so every receiver's decoder reads the
 * same key and no padding-only secret signs with an empty one.
 */
export function signingSecretProblem(secret: string): string | undefined {
  const body = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  if (body === undefined || body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return 'must be whsec_ followed by standard, padded base64';
  const bytes = Buffer.from(body, 'base64').length;
  if (bytes < MIN_SECRET_BYTES) return `must decode to at least ${MIN_SECRET_BYTES} bytes, not ${bytes}`;
  return undefined;
}

/** A new Ed25519 key pair in the Standard Webhooks formats. */
export interface SigningKeyPair {
  /** `whsk_` + base64 of the 32-byte seed and the 32-byte public key; sealed at rest, never returned. */
  privateKey: string;
  /** `whpk_` + base64 of the raw 32-byte public key; what receivers verify with. */
  publicKey: string;
}

/** Generates an Ed25519 signing key pair (node:crypto). */
export function generateSigningKeyPair(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const d = Buffer.from(privateKey.export({ format: 'jwk' }).d ?? '', 'base64url');
  const x = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  return { privateKey: PRIVATE_KEY_PREFIX + Buffer.concat([d, x]).toString('base64'), publicKey: PUBLIC_KEY_PREFIX + x.toString('base64') };
}
