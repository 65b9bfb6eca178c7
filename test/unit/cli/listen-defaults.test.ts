import { describe, expect, it } from 'vitest';
import { typesNotRefused } from '../../../src/cli/listen';

describe("listen's default event types", () => {
  const all = ['order.created', 'order.updated', 'webhook.test', 'stock.updated', 'stock.low'] as const;

  it('keeps the types a subscribe refusal did not name at /body/events/<index>', () => {
    const problem = { status: 403, errors: [0, 1, 3, 4].map((i) => ({ path: `/body/events/${i}`, message: 'needs the scope resources:read' })) };
    expect(typesNotRefused(all, problem)).toEqual(['webhook.test']);
  });

  it('keeps every type when the refusal names none of them', () => {
    expect(typesNotRefused(all, { status: 403, errors: [{ path: '/body/url', message: 'x' }] })).toEqual([...all]);
    expect(typesNotRefused(all, undefined)).toEqual([...all]);
  });
});
