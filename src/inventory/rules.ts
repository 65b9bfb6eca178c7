import type { StockAdjustment } from '../contract/types';
import { DomainError } from '../errors/domain-error';

/** The `low_stock_threshold` of a product that has none set. */
export const defaultLowStockThreshold = 5;

/** The units an order asks of one product, and the first of its lines that names it (for error paths). */
export interface ProductUnits {
  product_id: number;
  quantity: number;
  line: number;
}

/** An order's lines added up per product, in the order products first appear: one move per product. */
export function unitsByProduct(items: ReadonlyArray<{ product_id: number; quantity: number }>): ProductUnits[] {
  const byProduct = new Map<number, ProductUnits>();
  items.forEach((item, line) => {
    const seen = byProduct.get(item.product_id);
    if (seen) seen.quantity += item.quantity;
    else byProduct.set(item.product_id, { product_id: item.product_id, quantity: item.quantity, line });
  });
  return [...byProduct.values()];
}

/** True when a level moves from above `threshold` to at or below it: the moment `stock.low` is sent. */
export function crossesLow(previous: number, next: number, threshold: number): boolean {
  return previous > threshold && next <= threshold;
}

/** An adjustment in domain terms: the change of level (if any) and the threshold after it. */
export type ParsedAdjustment =
  | { kind: 'set'; quantity: number; threshold?: number }
  | { kind: 'delta'; delta: number; threshold?: number }
  | { kind: 'threshold'; threshold: number };

/**
 * Reads `PATCH /api/inventory/stock/{product_id}`'s body: at most one of `quantity` and
 * `delta`, at least one field. The validator enforces the ranges; the exclusivity is checked here.
 */
export function parseAdjustment(body: StockAdjustment): ParsedAdjustment {
  const threshold = body.low_stock_threshold;
  const withThreshold = threshold !== undefined ? { threshold } : {};
  if (body.quantity !== undefined && body.delta !== undefined) {
    throw DomainError.invalid('Invalid Adjustment', 'Send either quantity (the new level) or delta (the change), not both', [
      { field: ['delta'], message: 'must not be sent together with quantity' },
    ]);
  }
  if (body.quantity !== undefined) return { kind: 'set', quantity: body.quantity, ...withThreshold };
  if (body.delta !== undefined) return { kind: 'delta', delta: body.delta, ...withThreshold };
  if (threshold !== undefined) return { kind: 'threshold', threshold };
  throw DomainError.invalid('Invalid Adjustment', 'Send quantity, delta or low_stock_threshold', [
    { field: [], message: 'must have quantity, delta or low_stock_threshold' },
  ]);
}

/** The change of level an adjustment makes from `current` units (0 for a threshold alone). */
export function adjustmentDelta(adjustment: ParsedAdjustment, current: number): number {
  switch (adjustment.kind) {
    case 'set':
      return adjustment.quantity - current;
    case 'delta':
      return adjustment.delta;
    case 'threshold':
      return 0;
  }
}
