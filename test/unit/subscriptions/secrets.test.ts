import { describe, expect, it } from 'vitest';
import { generateSigningSecret, MIN_SECRET_BYTES, signingSecretProblem } from '../../../src/subscriptions/secrets';

describe('signingSecretProblem', () => {
  it('accepts what the service generates and the Standard Webhooks example', () => {
    expect(signingSecretProblem(generateSigningSecret())).toBeUndefined();
    expect(signingSecretProblem('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBeUndefined();
    expect(signingSecretProblem(`whsec_${Buffer.alloc(25, 7).toString('base64')}`)).toBeUndefined();
  });

  it.each([
    ['padding only', `whsec_${'='.repeat(32)}`, 'padded base64'],
    ['too few bytes', `whsec_${Buffer.alloc(MIN_SECRET_BYTES - 1, 1).toString('base64')}`, `at least ${MIN_SECRET_BYTES} bytes, not 23`],
    ['padding inside', 'whsec_AAAA====AAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'padded base64'],
    ['unpadded', `whsec_${Buffer.alloc(25, 7).toString('base64').replace(/=+$/, '')}`, 'padded base64'],
    ['url-safe alphabet', `whsec_${Buffer.alloc(24, 0xfb).toString('base64url')}`, 'padded base64'],
    ['no prefix', Buffer.alloc(24, 7).toString('base64'), 'whsec_'],
  ])('refuses %s', (_name, secret, reason) => {
    expect(signingSecretProblem(secret)).toContain(reason);
  });
});
