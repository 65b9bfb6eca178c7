/**
 * Golden bodies: the exact bytes a subscriber of each envelope version receives for each event
 * type, rendered from fixed inputs and compared with test/fixtures/golden/v<N>/<type>.json byte
 * for byte. Adding a version, or changing anything around the renderers, must leave every
 * existing file as it is: receivers of v1 keep getting what they got.
 *
 * A deliberate change to a version's body (a field the contract adds to `data`, say) rewrites
 * the files with `UPDATE_GOLDEN=1 npx vitest run test/unit/webhooks/golden-bodies.test.ts`;
 * review the diff before committing it. Without the flag any difference fails.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EventType, SubscriptionVersion } from '../../../src/contract/types';
import { DEFAULT_INLINE_LIMIT } from '../../../src/config/config';
import { type PayloadOptions, type TypedEvent, envelopeRenderers, renderEnvelope } from '../../../src/webhooks/envelopes';
import { sampleEventData } from '../../support/sample-events';

const goldenDir = fileURLToPath(new URL('../../fixtures/golden/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';

/** Fixed inputs, one per event type. */
const inputs = sampleEventData;
const eventIds: { [T in EventType]: string } = {
  'order.created': 'evt_9fK2mQ7xLp4RtV8wZb3N',
  'order.updated': 'evt_Q4nH7sWc2Jd9LkX1Tg6M',
  'webhook.test': 'evt_Z8cR5vN1bY6qPw3Ks0Hd',
  'stock.updated': 'evt_S7kD2pQ9wLm4XcV1Bn8R',
  'stock.low': 'evt_L3mT8qW2zXc6Vb1Nk9Pd',
};
const createdAt = new Date('2025-01-15T08:30:00.123Z');
const payloads: PayloadOptions = { apiUrl: 'https://hooks.example.com', inlineLimit: DEFAULT_INLINE_LIMIT };
const events = (Object.keys(inputs) as EventType[]).map((type) => ({ id: eventIds[type], type, data: inputs[type], created_at: createdAt }) as TypedEvent);
const versions = Object.keys(envelopeRenderers).map(Number) as SubscriptionVersion[];

const fileOf = (version: SubscriptionVersion, type: EventType) => join(goldenDir, `v${version}`, `${type}.json`);

describe.each(versions)('v%i bodies', (version) => {
  it.each(events.map((e) => [e.type, e] as const))('%s is byte for byte its golden file', (type, event) => {
    const body = renderEnvelope(version, event, payloads);
    const file = fileOf(version, type);
    if (update) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, body);
    }
    expect(existsSync(file), `${file} is missing: UPDATE_GOLDEN=1 writes it`).toBe(true);
    // Buffers, not parsed JSON: key order, number formatting and escaping count too.
    expect(Buffer.from(body).equals(readFileSync(file)), `v${version} ${type} differs from ${file}:\n${body}\n${readFileSync(file, 'utf8')}`).toBe(true);
  });

  it('has a golden file for every event type and no stray one', () => {
    const names = readdirSync(join(goldenDir, `v${version}`)).sort();
    expect(names).toEqual(events.map((e) => `${e.type}.json`).sort());
  });
});

describe('golden versions', () => {
  it('exist for every version the renderers know, and only for those', () => {
    const dirs = readdirSync(goldenDir).filter((d) => /^v\d+$/.test(d)).sort();
    expect(dirs).toEqual(versions.map((v) => `v${v}`).sort());
  });
});
