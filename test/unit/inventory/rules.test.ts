import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { adjustmentDelta, crossesLow, parseAdjustment, unitsByProduct } from '../../../src/inventory/rules';

describe('unitsByProduct', () => {
  it('adds up the lines of one product, keeping the first line that names it and the order products appear in', () => {
    expect(
      unitsByProduct([
        { product_id: 3, quantity: 2 },
        { product_id: 1, quantity: 1 },
        { product_id: 3, quantity: 5 },
      ]),
    ).toEqual([
      { product_id: 3, quantity: 7, line: 0 },
      { product_id: 1, quantity: 1, line: 1 },
    ]);
  });
});

describe('crossesLow', () => {
  it('is true only when the level goes from above the threshold to at or below it', () => {
    expect(crossesLow(6, 5, 5)).toBe(true);
    expect(crossesLow(20, 0, 5)).toBe(true);
    expect(crossesLow(6, 6, 5)).toBe(false);
    // Already low: no repeat.
    expect(crossesLow(5, 4, 5)).toBe(false);
    // Going up never crosses downward.
    expect(crossesLow(2, 9, 5)).toBe(false);
    // Threshold 0 means sold out.
    expect([crossesLow(1, 0, 0), crossesLow(2, 1, 0)]).toEqual([true, false]);
  });
});

describe('parseAdjustment and adjustmentDelta', () => {
  it('reads a new level, a delta or a threshold alone, and the change each makes', () => {
    expect(parseAdjustment({ quantity: 17 })).toEqual({ kind: 'set', quantity: 17 });
    expect(adjustmentDelta(parseAdjustment({ quantity: 17 }), 20)).toBe(-3);
    expect(parseAdjustment({ delta: -4, low_stock_threshold: 2 })).toEqual({ kind: 'delta', delta: -4, threshold: 2 });
    expect(adjustmentDelta(parseAdjustment({ delta: -4 }), 20)).toBe(-4);
    expect(parseAdjustment({ low_stock_threshold: 0 })).toEqual({ kind: 'threshold', threshold: 0 });
    expect(adjustmentDelta(parseAdjustment({ low_stock_threshold: 0 }), 20)).toBe(0);
  });

  it('refuses quantity with delta, naming delta, and an empty adjustment', () => {
    const refusal = (body: Parameters<typeof parseAdjustment>[0]) => {
      try {
        parseAdjustment(body);
      } catch (err) {
        return err instanceof DomainError ? [err.kind, err.errors] : err;
      }
      return 'accepted';
    };
    expect(refusal({ quantity: 3, delta: 1 })).toEqual(['invalid', [{ field: ['delta'], message: 'must not be sent together with quantity' }]]);
    expect(refusal({})).toEqual(['invalid', [{ field: [], message: 'must have quantity, delta or low_stock_threshold' }]]);
  });
});
