import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP } from 'node:net';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { PostResult } from '../workflows/delivery-model';
import { isFifoQueue, SQS_MAX_ATTRIBUTES, sqsAttributeNameProblem } from '../src/subscriptions/sqs-queue';
import { createGuardedLookup } from '../src/webhooks/address-policy';
import type { BrokerMessage } from './broker-message';
import { BrokerPool, brokerPoolKey } from './broker-pool';
import { addressProblem } from './broker-address';
import { attemptClock, bounded, describe, PROXY_REFUSAL, Timeout } from './broker-timing';

/**
 * One message to an SQS queue, as a delivery attempt sends it: `url` is the queue URL, which is
 * also the endpoint the request goes to; a FIFO queue (`.fifo`) gets `groupId` as its
 * MessageGroupId and the message id as its MessageDeduplicationId.
 */
export interface SqsSendRequest extends BrokerMessage {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The event's resource: one order's events in one FIFO message group, in order. */
  groupId: string;
}

/** Sends one message and says how it ended, never throwing: the delivery rules settle it. */
export type SqsSend = (req: SqsSendRequest) => Promise<PostResult>;

/** SQS's answers that repeat however often the message is sent (names in the JSON and the query protocol): the delivery stops. */
const REFUSALS = new Set([
  'QueueDoesNotExist',
  'AWS.SimpleQueueService.NonExistentQueue',
  'AccessDenied',
  'AccessDeniedException',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'InvalidSecurity',
  'OptInRequired',
  'InvalidParameterValue',
  'ValidationException',
  'MissingParameter',
  'InvalidMessageContents',
  'InvalidAttributeName',
  'InvalidAttributeValue',
  'InvalidAddress',
  'UnsupportedOperation',
  'KmsAccessDenied',
  'KmsDisabled',
  'KmsNotFound',
  'KmsInvalidState',
  'KmsInvalidKeyUsage',
  'KmsOptInRequired',
  'KMS.AccessDeniedException',
  'KMS.DisabledException',
  'KMS.NotFoundException',
  'KMS.KMSInvalidStateException',
  'KMS.InvalidKeyUsageException',
  'KMS.OptInRequired',
]);

const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

/**
 * SQS clients of one worker process, one per subscription and connection (its queue URL, region
 * and credentials): deliveries to it reuse the client and its keep-alive connections, a client
 * unused for `idleMs` is destroyed, and no two subscriptions share one. The SDK is imported on the
 * first send: a worker that never delivers to SQS never loads it.
 */
export class SqsPool {
  readonly #pool: BrokerPool<SQSClient>;

  constructor(opts: { idleMs?: number; now?: () => number } = {}) {
    this.#pool = new BrokerPool((client) => Promise.resolve(client.destroy()), opts);
  }

  /** Open clients (for tests and metrics). */
  get size(): number {
    return this.#pool.size;
  }

  /** Sends `req` with SendMessage and waits for its MessageId. */
  readonly send: SqsSend = async (req) => {
    const { ended, elapsedMs } = attemptClock('stored by SQS');
    const refused = req.proxied ? PROXY_REFUSAL : addressProblem(req);
    if (refused) return ended({ outcome: 'blocked', error: refused });
    const attributes = messageAttributes(req.headers);
    if ('problem' in attributes) return ended({ outcome: 'rejected', error: attributes.problem });
    const lease = this.#pool.acquire(brokerPoolKey(req.subscriptionId, [req.url, req.region, req.accessKeyId, req.secretAccessKey]), () => clientFor(req));
    const abort = new AbortController();
    try {
      const client = await bounded(lease.connection, req.timeoutMs, `no SQS client within ${req.timeoutMs} ms`);
      const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
      const fifo = isFifoQueue(req.url) ? { MessageGroupId: req.groupId, MessageDeduplicationId: req.messageId } : {};
      const command = new SendMessageCommand({ QueueUrl: req.url, MessageBody: req.body, MessageAttributes: attributes.attributes, ...fifo });
      const left = Math.max(1, req.timeoutMs - elapsedMs());
      const sent = await bounded(client.send(command, { abortSignal: abort.signal }), left, `no answer from SQS within ${req.timeoutMs} ms`);
      if (!sent.MessageId) return ended({ outcome: 'network_error', error: 'SQS answered SendMessage without a MessageId' });
      const sequence = sent.SequenceNumber ? `, sequence ${sent.SequenceNumber}` : '';
      return ended({ outcome: 'delivered', excerpt: `stored by SQS as message ${sent.MessageId}${sequence}` });
    } catch (err) {
      // Each request stands alone (keep-alive sockets, no session): the client stays pooled whatever this one met.
      if (err instanceof Timeout) {
        // The request is given up, not left to finish unseen.
        abort.abort();
        return ended({ outcome: 'timeout', error: err.message });
      }
      if ((err as NodeJS.ErrnoException).code === 'EFORBIDDENADDRESS') return ended({ outcome: 'blocked', error: (err as Error).message });
      // The HTTP handler's own connect or socket timeout, set to the same bound, may fire first.
      if (codesOf(err).includes('TimeoutError')) return ended({ outcome: 'timeout', error: `no answer from SQS within ${req.timeoutMs} ms: ${describe(err)}` });
      const refusal = refusalOf(err, req.url);
      if (refusal) return ended({ outcome: 'rejected', error: refusal });
      return ended({ outcome: 'network_error', error: explain(err) });
    } finally {
      lease.release();
    }
  };

  /** Destroys every client, each given at most `timeoutMs`; resolves with how many did not close in time. The pool makes new ones if used again. */
  close(timeoutMs?: number): Promise<number> {
    return this.#pool.close(timeoutMs);
  }
}

/**
 * The headers as String message attributes, those with an empty value left out (SQS takes none);
 * or why SQS would refuse them (more than it carries, a name it does not take). The subscription's
 * rules keep both from being stored; this holds for any that were.
 */
export function messageAttributes(headers: Readonly<Record<string, string>>): { attributes: Record<string, { DataType: 'String'; StringValue: string }> } | { problem: string } {
  const all = Object.entries({ ...headers, 'Content-Type': 'application/json' }).filter(([, value]) => value !== '');
  if (all.length > SQS_MAX_ATTRIBUTES) return { problem: `${all.length} headers, and SQS carries at most ${SQS_MAX_ATTRIBUTES} message attributes: remove custom headers` };
  for (const [name] of all) {
    const problem = sqsAttributeNameProblem(name);
    if (problem) return { problem };
  }
  return { attributes: Object.fromEntries(all.map(([name, value]) => [name, { DataType: 'String' as const, StringValue: value }])) };
}

/** The error codes of an SDK error: its name, the query protocol's code, the socket's errno. */
function codesOf(err: unknown): string[] {
  const e = err as { name?: unknown; Code?: unknown; code?: unknown };
  return [e.name, e.Code, e.code].filter((c): c is string => typeof c === 'string');
}

/**
 * The lasting refusal behind `err` as a line for the attempt log, or undefined when a later
 * attempt may succeed. A signature refused as expired is a clock apart, not a wrong secret: retried.
 */
export function refusalOf(err: unknown, queueUrl: string): string | undefined {
  const code = codesOf(err).find((c) => REFUSALS.has(c));
  if (!code) return undefined;
  const text = describe(err);
  if (/expired|skew/i.test(text)) return undefined;
  if (code === 'QueueDoesNotExist' || code === 'AWS.SimpleQueueService.NonExistentQueue') return `queue ${queueUrl} does not exist: ${text} (${code})`;
  if (/Access|Token|Signature|Client|Security|OptIn/.test(code) && !code.startsWith('Kms') && !code.startsWith('KMS')) return `SQS refused the credentials or access: ${text} (${code})`;
  return `SQS refused the message: ${text} (${code})`;
}

/** The error's text with its code, and its HTTP status when SQS answered. */
function explain(err: unknown): string {
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const code = codesOf(err).find((c) => c !== 'Error');
  const text = describe(err);
  return `${text}${code && !text.includes(code) ? ` (${code})` : ''}${status ? ` (HTTP ${status})` : ''}`;
}

/**
 * A client for the queue's host: requests go to the queue URL's origin, signed for the region with
 * the subscription's keys only (never the worker's own), one try per attempt (retries are the
 * subscription's schedule), over keep-alive sockets connected through the address policy's lookup
 * and from DELIVERY_SOURCE_ADDRESS when set.
 */
async function clientFor(req: SqsSendRequest): Promise<SQSClient> {
  const { SQSClient } = await import('@aws-sdk/client-sqs');
  const family = req.sourceAddress ? isIP(req.sourceAddress) : 0;
  const sockets = {
    keepAlive: true,
    maxSockets: 64,
    lookup: req.allowPrivate ? lookups.open : lookups.strict,
    ...(family !== 0 ? { localAddress: req.sourceAddress, family } : {}),
  };
  return new SQSClient({
    region: req.region,
    endpoint: new URL(req.url).origin,
    credentials: { accessKeyId: req.accessKeyId, secretAccessKey: req.secretAccessKey },
    maxAttempts: 1,
    requestHandler: { httpAgent: new HttpAgent(sockets), httpsAgent: new HttpsAgent(sockets), connectionTimeout: req.timeoutMs, requestTimeout: req.timeoutMs },
  });
}
