/** IPC messages between a bench, soak or chaos program and its receiver process (stack/harness/receiver.ts). */

export type ReceiverRequest =
  | { type: 'configure'; id: number; secrets: Record<string, string>; sampleEvery: number }
  | { type: 'reset'; id: number }
  /**
   * How to answer from now on: `status` to every POST (200 normally, 503 for an outage); never to
   * tags in `hang`; 200 only after `delayMs[tag]` ms to tags in `delayMs` (arrival still counts at once).
   */
  | { type: 'answer'; id: number; status: number; hang: string[]; delayMs?: Record<string, number> }
  | { type: 'expect'; id: number; eventIds: string[] }
  | { type: 'progress'; id: number }
  /** Every arrival, or with `since` (epoch ms) only those first seen at or after it. */
  | { type: 'dump'; id: number; since?: number }
  | { type: 'stop'; id: number }
  /** Closes the listening socket and every connection (senders get connection refused) until `up`. */
  | { type: 'down'; id: number }
  /** Listens again on the same port after `down`. */
  | { type: 'up'; id: number }
  /** Also records the entries of a Redis stream under `tag`, from its first one, as deliveries (a broker destination's consumer). */
  | { type: 'consume'; id: number; tag: string; redis: { url: string; password: string; stream: string } };

export interface ArrivalRecord {
  eventId: string;
  tag: string;
  /** Epoch ms (performance.timeOrigin + performance.now()) when the request's headers were parsed. */
  t: number;
  /** Times this (event, tag) arrived; more than 1 is a duplicate delivery. */
  n: number;
  /** `data.order_id` of the envelope, when it carried one (lets the soak match arrivals to orders without a database read). */
  orderId?: number;
  /** The `webhook-ordering-key` header (deliveries to ordered subscriptions only), with the envelope's fields that place the event in its key. */
  key?: string;
  /** The envelope's `event` (its type), when `key` is set. */
  event?: string;
  /** The envelope's `data.previous_status`, when `key` is set and it has one (`order.updated`). */
  previousStatus?: string;
}

export type ReceiverReply =
  | { type: 'listening'; id: 0; port: number }
  | { type: 'ok'; id: number }
  | { type: 'progress'; id: number; unique: number; seenExpected: number; total: number; duplicates: number; byTag: Record<string, number> }
  | {
      type: 'dump';
      id: number;
      arrivals: ArrivalRecord[];
      total: number;
      duplicates: number;
      verified: number;
      badSignatures: string[];
      malformed: number;
    };
