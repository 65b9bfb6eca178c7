import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { assertSqsFits, isFifoQueue, regionOfSqsHost, sqsAttributeNameProblem } from '../../../src/subscriptions/sqs-queue';

/** The fields a DomainError names, or the error when it is something else. */
function fieldsOf(run: () => void): unknown {
  try {
    run();
    return undefined;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return err.errors?.map((e) => e.field);
  }
}

describe('an SQS queue', () => {
  it('is FIFO when its name ends in .fifo', () => {
    expect(isFifoQueue('https://sqs.eu-west-1.amazonaws.com/123456789012/orders.fifo')).toBe(true);
    expect(isFifoQueue('https://sqs.eu-west-1.amazonaws.com/123456789012/orders')).toBe(false);
  });

  it.each([
    ['sqs.eu-west-1.amazonaws.com', 'eu-west-1'],
    ['sqs-fips.us-gov-west-1.amazonaws.com', 'us-gov-west-1'],
    ['sqs.cn-north-1.amazonaws.com.cn', 'cn-north-1'],
    ['us-east-2.queue.amazonaws.com', 'us-east-2'],
    ['127.0.0.1', undefined],
    ['sqs.eu-west-1.amazonaws.com.example.com', undefined],
  ])('host %s names region %s', (host, region) => {
    expect(regionOfSqsHost(host)).toBe(region);
  });

  it.each([
    ['webhook-id', undefined],
    ['X-Signature', undefined],
    ['tenant.name', undefined],
    ['X-Tenant!', 'X-Tenant! cannot be an SQS message attribute: letters, digits, "-", "_" and single "." inside only'],
    ['a..b', 'a..b cannot be an SQS message attribute: letters, digits, "-", "_" and single "." inside only'],
    ['.a', '.a cannot be an SQS message attribute: letters, digits, "-", "_" and single "." inside only'],
    ['aws.trace', "aws.trace cannot be an SQS message attribute: names beginning with AWS. or Amazon. are SQS's own"],
    ['Amazon.x', "Amazon.x cannot be an SQS message attribute: names beginning with AWS. or Amazon. are SQS's own"],
  ])('attribute name %s: %s', (name, problem) => {
    expect(sqsAttributeNameProblem(name)).toBe(problem);
  });
});

describe('what an SQS subscription may hold', () => {
  const aws = 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders';

  it('takes the region an AWS queue URL names, any region elsewhere', () => {
    expect(fieldsOf(() => assertSqsFits(aws, 'eu-west-1', []))).toBeUndefined();
    expect(fieldsOf(() => assertSqsFits(aws, 'us-east-1', []))).toEqual([['destination', 'region']]);
    expect(fieldsOf(() => assertSqsFits('http://127.0.0.1:9324/000000000000/orders', 'anything', []))).toBeUndefined();
  });

  it('takes at most 4 custom headers, each named as SQS takes attributes', () => {
    expect(fieldsOf(() => assertSqsFits(aws, 'eu-west-1', ['A', 'B', 'C', 'D']))).toBeUndefined();
    expect(fieldsOf(() => assertSqsFits(aws, 'eu-west-1', ['A', 'B', 'C', 'D', 'E']))).toEqual([['headers']]);
    expect(fieldsOf(() => assertSqsFits(aws, 'eu-west-1', ['ok', 'X-Tenant!']))).toEqual([['headers', 'X-Tenant!']]);
  });
});
