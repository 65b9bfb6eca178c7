import { DomainError } from '../errors/domain-error';

/**
 * A queue URL as SQS names one: `http(s)://host[:port]/<account>/<queue>`, the queue name at most
 * 80 characters (letters, digits, `-`, `_`; a FIFO queue's ending in `.fifo`), nothing after it.
 */
export const SQS_QUEUE_URL = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/?#@\s]+\/[A-Za-z0-9_-]{1,64}\/(?=[A-Za-z0-9_.-]{1,80}$)[A-Za-z0-9_-]+(\.fifo)?$/;

/** Most message attributes SQS takes on one message. */
export const SQS_MAX_ATTRIBUTES = 10;

/** Attributes the service sets itself at most: `Content-Type` and the signature headers during a rotation (`X-Signature`, `X-Signature-Previous`, `webhook-id`, `webhook-timestamp`, `webhook-signature`). */
const SERVICE_ATTRIBUTES = 6;

/** Most custom headers an SQS subscription takes: what is left of SQS's attributes after the service's. */
export const SQS_MAX_CUSTOM_HEADERS = SQS_MAX_ATTRIBUTES - SERVICE_ATTRIBUTES;

/** Whether a queue URL names a FIFO queue (SQS requires its name to end in `.fifo`). */
export function isFifoQueue(url: string): boolean {
  return url.endsWith('.fifo');
}

/** The region an AWS SQS endpoint host names (`sqs.<region>.amazonaws.com`, `<region>.queue.amazonaws.com`), or undefined for any other host. */
export function regionOfSqsHost(host: string): string | undefined {
  const m = /^(?:sqs(?:-fips)?\.([a-z0-9-]+)|([a-z0-9-]+)\.queue)\.amazonaws\.com(?:\.cn)?$/i.exec(host);
  return (m?.[1] ?? m?.[2])?.toLowerCase();
}

/** Why SQS would refuse `name` as a message attribute name, or undefined. */
export function sqsAttributeNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(name)) return `${name} cannot be an SQS message attribute: letters, digits, "-", "_" and single "." inside only`;
  if (/^(aws|amazon)\./i.test(name)) return `${name} cannot be an SQS message attribute: names beginning with AWS. or Amazon. are SQS's own`;
  return undefined;
}

/**
 * 422 unless an SQS subscription's parts fit SQS: `region` the one an AWS queue URL names, and at
 * most {@link SQS_MAX_CUSTOM_HEADERS} custom headers, each a name SQS takes as an attribute (a
 * header SQS could not carry would be lost or refuse every message).
 */
export function assertSqsFits(queueUrl: string, region: string | undefined, headerNames: readonly string[]): void {
  let host = '';
  try {
    host = new URL(queueUrl).hostname;
  } catch {
    // The url's own rules name it.
  }
  const named = regionOfSqsHost(host);
  if (region !== undefined && named !== undefined && named !== region) {
    const message = `the queue URL is in ${named}; requests to it are signed for its region`;
    throw DomainError.unprocessable(`destination.region does not fit: ${message}`, [{ field: ['destination', 'region'], message }]);
  }
  if (headerNames.length > SQS_MAX_CUSTOM_HEADERS) {
    const message = `an sqs destination takes at most ${SQS_MAX_CUSTOM_HEADERS} custom headers: SQS carries ${SQS_MAX_ATTRIBUTES} message attributes and the signature takes the rest`;
    throw DomainError.unprocessable(message, [{ field: ['headers'], message }]);
  }
  const errors = headerNames.flatMap((name) => {
    const problem = sqsAttributeNameProblem(name);
    return problem ? [{ field: ['headers', name], message: problem }] : [];
  });
  if (errors.length) throw DomainError.unprocessable(errors.map((e) => e.message).join('; '), errors);
}
