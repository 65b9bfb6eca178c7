import type { WebhookMeta } from '../contract/types';
import { formatIpRange, parseIpRange } from '../lib/ip';

/**
 * What `GET /api/webhooks/v1/meta` tells receivers about where deliveries come from: the fixed
 * source address as a CIDR range, or, without one, an empty list marked not fixed, so nobody
 * allow-lists an address the next delivery may not come from.
 */
export function webhookMeta(sourceAddress: string | undefined): WebhookMeta {
  const range = sourceAddress === undefined ? undefined : parseIpRange(sourceAddress);
  if (!range) return { delivery_source_addresses: [], delivery_source_addresses_fixed: false };
  return { delivery_source_addresses: [formatIpRange(range)], delivery_source_addresses_fixed: true };
}
