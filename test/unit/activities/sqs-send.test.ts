import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageAttributes, refusalOf, SqsPool, type SqsSendRequest } from '../../../activities/sqs-send';

const request = (over: Partial<SqsSendRequest>): SqsSendRequest => ({
  subscriptionId: 'sub_1',
  url: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders',
  region: 'eu-west-1',
  accessKeyId: 'AKIDUNITTEST00000000',
  secretAccessKey: 'unit-test-secret',
  groupId: 'order:7',
  messageId: 'evt_1',
  body: '{"id":"evt_1"}',
  headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' },
  timeoutMs: 2000,
  allowPrivate: false,
  ...over,
});

describe('the SQS pool under the address policy', () => {
  it.each([
    ['a private IP', { url: 'https://10.1.2.3/123456789012/orders' }, /10\.1\.2\.3 is a private address/],
    ['a service port', { url: 'https://sqs.example.com:5432/123456789012/orders' }, /port 5432 \(PostgreSQL\) is not allowed/],
    ['the egress proxy', { proxied: true }, /DELIVERY_PROXY_URL/],
  ] as const)('blocks %s before connecting', async (_what, over, error) => {
    const pool = new SqsPool();
    const r = await pool.send(request(over));
    expect(r).toMatchObject({ outcome: 'blocked' });
    expect('error' in r ? r.error : '').toMatch(error);
    expect(pool.size).toBe(0);
  });

  it('blocks a queue host that resolves to a private address, at connect time', async () => {
    const pool = new SqsPool();
    const r = await pool.send(request({ url: 'http://localhost:19324/000000000000/orders' }));
    expect(r).toMatchObject({ outcome: 'blocked' });
    await pool.close();
  });
});

describe('the message attributes', () => {
  it('are the headers and Content-Type as Strings, an empty value left out', () => {
    expect(messageAttributes({ 'webhook-id': 'evt_1', 'X-Empty': '' })).toEqual({
      attributes: { 'webhook-id': { DataType: 'String', StringValue: 'evt_1' }, 'Content-Type': { DataType: 'String', StringValue: 'application/json' } },
    });
  });

  it('refuse more than SQS carries, and names it does not take', () => {
    const eleven = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-${i}`, 'v']));
    expect(messageAttributes(eleven)).toEqual({ problem: '11 headers, and SQS carries at most 10 message attributes: remove custom headers' });
    expect(messageAttributes({ 'X-Tenant!': 'acme' })).toHaveProperty('problem', expect.stringContaining('X-Tenant! cannot be an SQS message attribute'));
    expect(messageAttributes({ 'AWS.Trace': 'x' })).toHaveProperty('problem', expect.stringContaining("SQS's own"));
  });
});

describe("SQS's answers", () => {
  const queue = 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders';
  it.each([
    [{ name: 'QueueDoesNotExist', Code: 'AWS.SimpleQueueService.NonExistentQueue', message: 'The specified queue does not exist.' }, `queue ${queue} does not exist: The specified queue does not exist. (QueueDoesNotExist)`],
    [{ name: 'InvalidClientTokenId', message: 'The security token included in the request is invalid.' }, 'SQS refused the credentials or access: The security token included in the request is invalid. (InvalidClientTokenId)'],
    [{ name: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match.' }, 'SQS refused the credentials or access: The request signature we calculated does not match. (SignatureDoesNotMatch)'],
    [{ name: 'AccessDenied', message: 'Access to the resource is denied.' }, 'SQS refused the credentials or access: Access to the resource is denied. (AccessDenied)'],
    [{ name: 'InvalidParameterValue', message: 'Message must be shorter than 262144 bytes.' }, 'SQS refused the message: Message must be shorter than 262144 bytes. (InvalidParameterValue)'],
  ])('%o stops', (err, line) => {
    expect(refusalOf(Object.assign(new Error(err.message), err), queue)).toBe(line);
  });

  it.each([
    { name: 'RequestThrottled', message: 'Request is throttled.' },
    { name: 'InternalFailure', message: 'internal', $metadata: { httpStatusCode: 500 } },
    { name: 'SignatureDoesNotMatch', message: 'Signature expired: 20261127T010000Z is now earlier than 20261127T020000Z' },
    { name: 'Error', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9324' },
  ])('%o retries', (err) => {
    expect(refusalOf(Object.assign(new Error(err.message), err), queue)).toBeUndefined();
  });
});

describe('sending to an SQS endpoint', () => {
  let server: Server;
  let endpoint = '';
  const seen: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }> = [];
  let answer: (body: Record<string, unknown>) => { status: number; headers?: Record<string, string>; body: unknown } = () => ({ status: 500, body: {} });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        const body = JSON.parse(text || '{}') as Record<string, unknown>;
        seen.push({ headers: req.headers, body });
        const a = answer(body);
        res.writeHead(a.status, { 'content-type': 'application/x-amz-json-1.0', ...a.headers });
        res.end(JSON.stringify(a.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const send = (pool: SqsPool, queue: string) => pool.send(request({ url: `${endpoint}/123456789012/${queue}`, allowPrivate: true }));

  it('signs for the region with the subscription keys, sends once, and is delivered on the MessageId', async () => {
    answer = (b) => ({ status: 200, body: { MessageId: 'm-1', MD5OfMessageBody: md5(String(b.MessageBody)) } });
    seen.length = 0;
    const pool = new SqsPool();
    const r = await send(pool, 'orders');
    expect(r).toMatchObject({ outcome: 'delivered', statusCode: 200, responseExcerpt: 'stored by SQS as message m-1' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['x-amz-target']).toBe('AmazonSQS.SendMessage');
    expect(seen[0]!.headers.authorization).toMatch(/Credential=AKIDUNITTEST00000000\/\d{8}\/eu-west-1\/sqs\/aws4_request/);
    expect(seen[0]!.body).toMatchObject({ QueueUrl: `${endpoint}/123456789012/orders`, MessageBody: '{"id":"evt_1"}' });
    expect(seen[0]!.body.MessageAttributes).toMatchObject({ 'webhook-id': { DataType: 'String', StringValue: 'evt_1' }, 'Content-Type': { DataType: 'String', StringValue: 'application/json' } });
    // A standard queue takes no group or de-duplication id.
    expect(seen[0]!.body).not.toHaveProperty('MessageGroupId');
    await pool.close();
  });

  it('gives a FIFO queue the ordering key as its group and the event id as its de-duplication id', async () => {
    answer = (b) => ({ status: 200, body: { MessageId: 'm-2', MD5OfMessageBody: md5(String(b.MessageBody)), SequenceNumber: '18889' } });
    seen.length = 0;
    const pool = new SqsPool();
    const r = await send(pool, 'orders.fifo');
    expect(r).toMatchObject({ outcome: 'delivered', responseExcerpt: 'stored by SQS as message m-2, sequence 18889' });
    expect(seen[0]!.body).toMatchObject({ MessageGroupId: 'order:7', MessageDeduplicationId: 'evt_1' });
    await pool.close();
  });

  it('times out on an endpoint that never answers, whichever timer fires first', async () => {
    const silent = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const pool = new SqsPool();
      const r = await pool.send(request({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/123456789012/orders`, allowPrivate: true, timeoutMs: 300 }));
      expect(r).toMatchObject({ outcome: 'timeout' });
      await pool.close();
    } finally {
      silent.close();
    }
  });

  it.each([
    [400, 'com.amazonaws.sqs#QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue;Sender', 'rejected', /does not exist/],
    [403, 'com.amazon.coral.service#UnrecognizedClientException', 'InvalidClientTokenId;Sender', 'rejected', /refused the credentials/],
    [403, 'com.amazon.coral.service#AccessDeniedException', 'AccessDenied;Sender', 'rejected', /refused the credentials/],
    [400, 'com.amazonaws.sqs#RequestThrottled', 'RequestThrottled;Sender', 'network_error', /RequestThrottled/],
    [500, 'com.amazon.coral.service#InternalFailure', 'InternalFailure;Receiver', 'network_error', /HTTP 500/],
  ] as const)('answered %i %s: %s', async (status, type, queryError, outcome, error) => {
    answer = () => ({ status, headers: { 'x-amzn-query-error': queryError }, body: { __type: type, message: 'from the fake' } });
    seen.length = 0;
    const pool = new SqsPool();
    const r = await send(pool, 'orders');
    expect(r).toMatchObject({ outcome });
    expect('error' in r ? r.error : '').toMatch(error);
    expect('error' in r ? r.error : '').not.toContain('unit-test-secret');
    // One request per attempt: the subscription's schedule retries, not the SDK.
    expect(seen).toHaveLength(1);
    await pool.close();
  });
});
