/**
 * The shared vectors (clients/vectors/signatures.json) against the TypeScript receiver kit, the
 * `verify` that clients/typescript exports: every SDK must accept and refuse exactly these.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verify, WebhookVerificationError } from '../../../clients/typescript/src/receiver';
import { renderVectors, vectorsPath } from '../../../tools/lib/vectors';

interface Vector {
  name: string;
  valid: boolean;
  scheme: 'standard-webhooks' | 'x-signature';
  keys: string[];
  now: number;
  tolerance: number;
  headers: Record<string, string>;
  body: string;
}

const file = readFileSync(new URL(`../../../${vectorsPath}`, import.meta.url), 'utf8');
const { vectors } = JSON.parse(file) as { vectors: Vector[] };

describe('shared webhook vectors, TypeScript', () => {
  it('are what the service signs today', () => {
    expect(file).toBe(renderVectors());
  });

  it('cover HMAC, X-Signature, Ed25519, tampering, stale times and rotations', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(25);
    for (const kind of ['hmac:', 'x-signature:', 'ed25519:', 'hmac rotation:', 'ed25519 rotation:', 'switch from hmac']) {
      expect(vectors.some((v) => v.name.startsWith(kind) && v.valid)).toBe(true);
      expect(vectors.some((v) => v.name.startsWith(kind) && !v.valid) || kind.includes('rotation') || kind.startsWith('switch')).toBe(true);
    }
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const run = () => verify(Buffer.from(v.body, 'utf8'), v.headers, v.keys, { scheme: v.scheme, toleranceSeconds: v.tolerance, now: () => v.now * 1000 });
    if (v.valid) expect(run()).toEqual(JSON.parse(v.body));
    else expect(run).toThrow(WebhookVerificationError);
  });
});
