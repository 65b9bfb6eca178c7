import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { withClosedResponses } from '../../../src/contract/strict-responses';

type Schema = { additionalProperties?: unknown; properties?: Record<string, Schema>; allOf?: Schema[] };
const schemaOf = (doc: ReturnType<typeof loadContract>, name: string) => (doc.components?.schemas as Record<string, Schema>)[name]!;

describe('the service checks its own responses against closed schemas', () => {
  const published = loadContract();
  const strict = withClosedResponses(published);

  it('closes what only responses use, and leaves the published contract open', () => {
    expect(schemaOf(published, 'Subscription').additionalProperties).toBeUndefined();
    expect(schemaOf(strict, 'Subscription').additionalProperties).toBe(false);
    expect(schemaOf(strict, 'DeliveryAttempt').additionalProperties).toBe(false);
  });

  it('keeps what a request reaches, what says it is open, and allOf members as they are', () => {
    expect(schemaOf(strict, 'SubscriptionCreate').additionalProperties).toBe(schemaOf(published, 'SubscriptionCreate').additionalProperties);
    expect(schemaOf(strict, 'Problem').additionalProperties).toEqual(schemaOf(published, 'Problem').additionalProperties);
    const member = schemaOf(strict, 'InsufficientStockProblem').allOf?.[1];
    expect(member?.additionalProperties).toBeUndefined();
  });
});
