/** What every broker publish of a delivery attempt carries, whatever the broker's own target and credentials. */
export interface BrokerMessage {
  subscriptionId: string;
  /** The broker's address (the subscription's url), without credentials. */
  url: string;
  /** The event id: each broker's message id, the same on every retry. */
  messageId: string;
  body: string;
  /** The signature headers and the subscription's own, as message headers. */
  headers: Record<string, string>;
  /** Bounds the attempt: the connect (when there is none to reuse) and the wait for the broker's confirmation together. */
  timeoutMs: number;
  /** Allow loopback/private brokers (local development and tests only). */
  allowPrivate: boolean;
  sourceAddress?: string | undefined;
  /** Egress must go through DELIVERY_PROXY_URL, an HTTP CONNECT proxy a broker connection cannot take: not sent. */
  proxied?: boolean;
}
