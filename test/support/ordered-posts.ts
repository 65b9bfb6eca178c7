import type { Received } from './receiver';

/** An order's events in emission order, as its statuses go: created (pending), then each update. */
const place: Record<string, number> = { pending: 1, paid: 2, shipped: 3, delivered: 4 };

/** One POST of an order event a receiver got: which event, of which order, its place, whether it was answered 2xx. */
export interface OrderPost {
  eventId: string;
  orderId: number;
  seq: number;
  ok: boolean;
}

/** The event, order and place of a delivered v1 order envelope. */
export function parseOrderPost(r: Received): Omit<OrderPost, 'ok'> {
  const body = JSON.parse(r.body) as { event: string; id: string; data: { order_id: number; status: string } };
  return { eventId: body.id, orderId: body.data.order_id, seq: body.event === 'order.created' ? 1 : place[body.data.status]! };
}

/**
 * Each POST (in arrival order) that came before an earlier event of its order was delivered
 * (answered 2xx): what ordered delivery must never do while nothing fails for good.
 */
export function outOfOrder(posts: readonly OrderPost[]): string[] {
  const delivered = new Map<number, Set<number>>();
  const broken: string[] = [];
  for (const p of posts) {
    const done = delivered.get(p.orderId) ?? new Set<number>();
    for (let s = 1; s < p.seq; s++) if (!done.has(s)) broken.push(`order ${p.orderId}: event ${p.seq} sent before ${s} was delivered`);
    if (p.ok) done.add(p.seq);
    delivered.set(p.orderId, done);
  }
  return broken;
}
