import { describe, expect, it } from 'vitest';
import { DEFAULT_INLINE_LIMIT } from '../../../src/config/config';
import type { EventDoc } from '../../../src/events/repository';
import type { EventInput } from '../../../workflows/definitions';
import { carriedEvent, eventWorkflowStartOptions, MAX_CARRIED_DATA_BYTES } from '../../../src/events/start-options';
import { renderEnvelope } from '../../../src/webhooks/envelopes';

const created = new Date('2026-11-26T12:00:00.000Z');
const event: EventDoc = {
  _id: 'evt_carried',
  type: 'order.created',
  data: { order_id: 7, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1, note: undefined },
  created_at: created,
  data_owner: 'owner-1',
  subscription_ids: ['sub_1'],
};
const payloads = { apiUrl: 'https://hooks.example.com', inlineLimit: DEFAULT_INLINE_LIMIT };
const settings = { taskQueue: 'q', policy: { scheduleMs: [1000], maxAttempts: 2, jitterRatio: 0 }, batchSize: 50 };

describe('carriedEvent', () => {
  it('carries what delivery needs, as JSON, rendering the body the stored event renders', () => {
    const carried = carriedEvent(event)!;
    // Through the workflow input as Temporal's JSON converter carries it.
    const arrived = JSON.parse(JSON.stringify(eventWorkflowStartOptions({ eventId: event._id, eventType: event.type, subscriptionIds: ['sub_1'], event: carried }, settings).args[0])) as Required<EventInput>;
    expect(arrived.event).toEqual({ data: { ...event.data, note: null }, createdAt: created.toISOString(), dataOwner: 'owner-1' });
    // The database gives an undefined field back as null.
    const stored = { id: event._id, type: event.type, data: { ...event.data, note: null }, created_at: created };
    const fromInput = { id: event._id, type: event.type, data: arrived.event.data, created_at: new Date(arrived.event.createdAt) };
    for (const version of [1, 2] as const) expect(renderEnvelope(version, fromInput, payloads)).toBe(renderEnvelope(version, stored, payloads));
  });

  it('leaves data larger than the bound to be read by the worker', () => {
    const big = { ...event, data: { ...event.data, items: 'x'.repeat(MAX_CARRIED_DATA_BYTES) } };
    expect(carriedEvent(big)).toBeUndefined();
    const options = eventWorkflowStartOptions({ eventId: event._id, eventType: event.type, subscriptionIds: ['sub_1'] }, settings);
    expect(options.args[0]).not.toHaveProperty('event');
  });
});
