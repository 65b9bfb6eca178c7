import type { FieldPath } from './field-issue';

/** One product an order or adjustment wanted more units of than there are. */
export interface StockShortfall {
  product_id: number;
  /** Units asked for (an order's lines of one product added up). */
  requested: number;
  /** Units in stock when the request was refused. */
  available: number;
  /** The input field that asked for them, e.g. `['items', 0, 'quantity']` or `['delta']`. */
  field: FieldPath;
}

/**
 * Too few units in stock: a 409 naming each short product and what is available (mapped in
 * src/http/problem.ts). Nothing was written when it is thrown.
 */
export class InsufficientStock extends Error {
  constructor(readonly shortfalls: readonly StockShortfall[]) {
    super(`Not enough stock for ${shortfalls.length} of the items: ${shortfalls.map((s) => `product ${s.product_id} has ${s.available} units`).join(', ')}`);
    this.name = 'InsufficientStock';
  }
}
