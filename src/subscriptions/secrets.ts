import { randomBytes } from 'node:crypto';

/** A signing secret in the Standard Webhooks format: `whsec_` + base64 of 24 random bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
