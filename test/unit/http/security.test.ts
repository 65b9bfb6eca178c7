import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import type { ApiKeyRepository } from '../../../src/auth/api-keys';
import { apiKeyHandler, KeyStoreError } from '../../../src/http/security';

const request = () => ({ headers: { authorization: 'Bearer key_0123456789abcdef0123456789' } }) as unknown as Request;
const keys = (authenticate: ApiKeyRepository['authenticate']) => ({ authenticate }) as unknown as ApiKeyRepository;

describe('apiKeyHandler', () => {
  it('answers a failed key lookup (database down) with a server error, not a 401 for a valid key', async () => {
    const handler = apiKeyHandler({ keys: keys(() => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:27017"))) });
    const refusal = handler(request(), ['orders:write']);
    await expect(refusal).rejects.toBeInstanceOf(KeyStoreError);
    await expect(refusal).rejects.toMatchObject({ status: 500, message: 'API key lookup failed: connect ECONNREFUSED 127.0.0.1:27017' });
  });

  it('still answers an unknown key with 401 and a missing scope with 403', async () => {
    await expect(apiKeyHandler({ keys: keys(() => Promise.resolve(undefined)) })(request(), [])).rejects.toMatchObject({ status: 401 });
    const reader = keys(() => Promise.resolve({ keyId: 'k', ownerId: 'o', scopes: ['resources:read'] }));
    await expect(apiKeyHandler({ keys: reader })(request(), ['orders:write'])).rejects.toMatchObject({ status: 403 });
  });
});
