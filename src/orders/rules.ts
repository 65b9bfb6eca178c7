import { DomainError } from '../errors/domain-error';
import type { OrderItem, OrderStatus, OrderSummary } from '../contract/types';
import type { StoredEventData } from '../webhooks/envelopes';

/** The fields `GET /api/users/{user_id}/orders?fields=` may select. */
export type SummaryField = keyof OrderSummary;
export const summaryFields: readonly SummaryField[] = ['id', 'total', 'date'];

/**
 * Parses `fields` (`id,total`): the selected fields, or all three when absent. Duplicates
 * collapse. The validator already enforces the contract's pattern; this is the use case's own
 * guard, so it is safe to call without the validator in front.
 */
export function parseFields(raw: string | undefined): Set<SummaryField> {
  if (raw === undefined) return new Set(summaryFields);
  const parts = raw.split(',');
  const unknown = parts.filter((p) => !(summaryFields as readonly string[]).includes(p));
  if (unknown.length) {
    throw DomainError.invalid('Invalid Fields', `fields may only name ${summaryFields.join(', ')}`, [
      { field: ['fields'], message: `unknown field ${unknown.map((u) => JSON.stringify(u)).join(', ')}` },
    ]);
  }
  return new Set(parts as SummaryField[]);
}

/** The one condition of `GET /api/catalog/products?filter=<field>=<value>`. */
export interface ProductFilter {
  field: 'category' | 'sku';
  value: string;
}

const filterPattern = /^(category|sku)=([A-Za-z0-9_-]{1,64})$/;

/** Parses `filter` by the contract's grammar; anything else is a 400 naming `/query/filter`. */
export function parseProductFilter(raw: string | undefined): ProductFilter | undefined {
  if (raw === undefined) return undefined;
  const match = filterPattern.exec(raw);
  if (!match) {
    throw DomainError.invalid('Invalid Filter', 'filter must be <field>=<value> with field category or sku', [
      { field: ['filter'], message: 'must be category=<value> or sku=<value>, value 1 to 64 of A-Z a-z 0-9 _ -' },
    ]);
  }
  return { field: match[1] as ProductFilter['field'], value: match[2]! };
}

/** Where each status may move (see the contract's `OrderStatus`); final statuses move nowhere. */
const transitions: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['paid', 'cancelled'],
  paid: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

/** True when an order in `from` may move to `to` (a same-status "move" is not a transition). */
export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return transitions[from].includes(to);
}

/** A decimal amount in currency units as integer cents (catalog prices have two decimals). */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Integer cents back to a decimal amount, e.g. 4447 → 44.47. */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** Sum of quantity × unit price, computed in cents so that 3 × 12.99 + 5.50 is exactly 44.47. */
export function orderTotal(lines: ReadonlyArray<{ quantity: number; unit_price: number }>): number {
  return fromCents(lines.reduce((sum, l) => sum + l.quantity * toCents(l.unit_price), 0));
}

/**
 * `data` of `order.created` as stored: the contract's `OrderEventData` with its lines (an order's
 * never change). The delivery adds `url`, and leaves `items` out above WEBHOOK_INLINE_LIMIT.
 */
export function createdEventData(doc: { id: number; total: number; currency: string; status: OrderStatus; user_id: number; items: OrderItem[] }): StoredEventData<'order.created'> {
  return { order_id: doc.id, total: doc.total, currency: doc.currency, status: doc.status, user_id: doc.user_id, item_count: doc.items.length, items: doc.items.map(({ product_id, quantity, unit_price }) => ({ product_id, quantity, unit_price })) };
}
