import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { ackDeadlineMs, assertDestinationFields, assertUrlFitsDestination, openDestination, resealDestination, sealDestination, viewDestination } from '../../../src/subscriptions/destination';
import { SecretBox } from '../../../src/subscriptions/secret-box';

const oldBox = new SecretBox({ id: 'k1', key: Buffer.alloc(32, 1) });
const box = new SecretBox({ id: 'k2', key: Buffer.alloc(32, 2) }, [{ id: 'k1', key: Buffer.alloc(32, 1) }]);
const rabbit = { type: 'rabbitmq' as const, exchange: 'webhooks', routing_key: 'orders', username: 'hooks', password: 'broker-password' };

describe('a subscription destination', () => {
  it('stores nothing for http, and a broker with its credentials sealed, shown masked, opened for the worker', () => {
    expect(sealDestination(box, 'sub_1', { type: 'http' })).toBeNull();
    const stored = sealDestination(box, 'sub_1', rabbit)!;
    expect(JSON.stringify(stored)).not.toMatch(/"hooks"|broker-password/);
    expect(viewDestination(stored)).toEqual({ type: 'rabbitmq', exchange: 'webhooks', routing_key: 'orders', username: '********', password: '********' });
    expect(openDestination(box, 'sub_1', stored)).toEqual({ type: 'rabbitmq', exchange: 'webhooks', routingKey: 'orders', username: 'hooks', password: 'broker-password' });
    // Bound to its subscription: another one's document cannot borrow it.
    expect(() => openDestination(box, 'sub_2', stored)).toThrow();
  });

  it('stores a pull ack deadline only when sent; reads and delivery fall back to 30 s', () => {
    const plain = sealDestination(box, 'sub_1', { type: 'pull' })!;
    expect(plain).toEqual({ type: 'pull' });
    expect(viewDestination(plain)).toEqual({ type: 'pull', ack_deadline_seconds: 30 });
    expect(ackDeadlineMs(plain as { type: 'pull' })).toBe(30_000);
    const slow = sealDestination(box, 'sub_1', { type: 'pull', ack_deadline_seconds: 120 })!;
    expect(viewDestination(slow)).toEqual({ type: 'pull', ack_deadline_seconds: 120 });
    expect(ackDeadlineMs(openDestination(box, 'sub_1', slow) as { type: 'pull' })).toBe(120_000);
  });

  it('reseals credentials stored under an old key, and leaves current ones alone', () => {
    const old = sealDestination(oldBox, 'sub_1', rabbit)!;
    const fresh = resealDestination(box, 'sub_1', old);
    expect(fresh.type === 'rabbitmq' && fresh.credentials).toMatch(/^enc:v1:k2:/);
    const opened = openDestination(box, 'sub_1', fresh);
    expect(opened.type === 'rabbitmq' && opened.password).toBe('broker-password');
    expect(resealDestination(box, 'sub_1', fresh)).toBe(fresh);
  });

  it.each([
    ['https://a.example/h', 'http', undefined],
    ['amqps://mq.example.com/', 'rabbitmq', undefined],
    ['AMQP://mq.example.com/', 'rabbitmq', undefined],
    ['amqps://mq.example.com/', 'http', 'http destinations take https or http URLs, not amqps'],
    ['https://a.example/h', 'rabbitmq', 'rabbitmq destinations take amqps or amqp URLs, not https'],
  ] as const)('%s with a %s destination: %s', (url, kind, problem) => {
    const run = () => assertUrlFitsDestination(url, kind, 'url', false);
    if (!problem) return expect(run).not.toThrow();
    expect(run).toThrow(DomainError);
    try {
      run();
    } catch (err) {
      expect((err as DomainError).errors).toEqual([{ field: ['url'], message: problem }]);
    }
  });

  it('keeps auth to http destinations', () => {
    expect(() => assertUrlFitsDestination('amqps://mq.example.com/', 'rabbitmq', 'destination', true)).toThrow(/auth is for http destinations/);
    expect(() => assertUrlFitsDestination('https://a.example/h', 'http', 'url', true)).not.toThrow();
  });

  it('seals a NATS destination, shows which credentials are set and never their values', () => {
    const user = sealDestination(box, 'sub_1', { type: 'nats', subject: 'webhooks.orders', username: 'hooks', password: 'nats-password' })!;
    expect(JSON.stringify(user)).not.toMatch(/"hooks"|nats-password/);
    expect(viewDestination(user)).toEqual({ type: 'nats', subject: 'webhooks.orders', username: '********', password: '********' });
    expect(openDestination(box, 'sub_1', user)).toEqual({ type: 'nats', subject: 'webhooks.orders', username: 'hooks', password: 'nats-password' });
    const token = sealDestination(box, 'sub_1', { type: 'nats', subject: 's', token: 'nats-token' })!;
    expect(viewDestination(token)).toEqual({ type: 'nats', subject: 's', token: '********' });
    expect(viewDestination(sealDestination(box, 'sub_1', { type: 'nats', subject: 's' })!)).toEqual({ type: 'nats', subject: 's' });
    const fresh = resealDestination(box, 'sub_1', sealDestination(oldBox, 'sub_1', { type: 'nats', subject: 's', token: 'nats-token' })!);
    expect(openDestination(box, 'sub_1', fresh)).toMatchObject({ token: 'nats-token' });
  });

  it.each([
    [{ subject: 's', username: 'u' }, 'password'],
    [{ subject: 's', password: 'p' }, 'username'],
    [{ subject: 's', token: 't', username: 'u', password: 'p' }, 'token'],
  ] as const)('refuses NATS credentials %j, naming %s', (fields, field) => {
    expect(() => assertDestinationFields({ type: 'nats', ...fields })).toThrow(DomainError);
    try {
      assertDestinationFields({ type: 'nats', ...fields });
    } catch (err) {
      expect((err as DomainError).errors?.[0]?.field).toEqual(['destination', field]);
    }
  });

  it.each([
    ['tls://nats.example.com', undefined],
    ['nats://nats.example.com:4222/', undefined],
    ['nats://nats.example.com:4222/stream', 'a nats destination takes tls://host[:port] or nats://host[:port], without a path or query'],
    ['amqps://mq.example.com/', 'nats destinations take tls or nats URLs, not amqps'],
  ] as const)('%s with a nats destination: %s', (url, problem) => {
    const run = () => assertUrlFitsDestination(url, 'nats', 'url', false);
    if (!problem) return expect(run).not.toThrow();
    expect(run).toThrow(problem);
  });

  it('seals a Redis destination: a password alone, or with its user, masked; maxlen shown', () => {
    const stored = sealDestination(box, 'sub_1', { type: 'redis', stream: 'webhooks:orders', maxlen: 1000, password: 'redis-password' })!;
    expect(JSON.stringify(stored)).not.toContain('redis-password');
    expect(viewDestination(stored)).toEqual({ type: 'redis', stream: 'webhooks:orders', maxlen: 1000, password: '********' });
    expect(openDestination(box, 'sub_1', stored)).toEqual({ type: 'redis', stream: 'webhooks:orders', maxlen: 1000, password: 'redis-password' });
    expect(() => assertDestinationFields({ type: 'redis', stream: 's', password: 'p' })).not.toThrow();
    expect(() => assertDestinationFields({ type: 'redis', stream: 's', username: 'u' })).toThrow(/a username needs its password/);
  });

  it.each([
    ['rediss://redis.example.com', undefined],
    ['redis://redis.example.com:6380/3', undefined],
    ['redis://redis.example.com/', undefined],
    ['redis://redis.example.com/orders', 'a redis destination takes rediss://host[:port][/db] or redis://host[:port][/db], the database a number'],
    ['redis://redis.example.com/0?x=1', 'a redis destination takes rediss://host[:port][/db] or redis://host[:port][/db], the database a number'],
  ] as const)('%s with a redis destination: %s', (url, problem) => {
    const run = () => assertUrlFitsDestination(url, 'redis', 'url', false);
    if (!problem) return expect(run).not.toThrow();
    expect(run).toThrow(problem);
  });
  it('seals an SQS destination: both keys sealed, shown masked, the region shown', () => {
    const stored = sealDestination(box, 'sub_1', { type: 'sqs', region: 'eu-west-1', access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'sqs-secret-key' })!;
    expect(JSON.stringify(stored)).not.toMatch(/AKIAIOSFODNN7EXAMPLE|sqs-secret-key/);
    expect(viewDestination(stored)).toEqual({ type: 'sqs', region: 'eu-west-1', access_key_id: '********', secret_access_key: '********' });
    expect(openDestination(box, 'sub_1', stored)).toEqual({ type: 'sqs', region: 'eu-west-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'sqs-secret-key' });
    expect(() => openDestination(box, 'sub_2', stored)).toThrow();
  });

  const sqsShape = 'an sqs destination takes the queue URL, https://host/<account>/<queue> (the queue name letters, digits, "-" or "_", a FIFO queue\'s ending in .fifo), without a query';
  it.each([
    ['https://sqs.eu-west-1.amazonaws.com/123456789012/orders', undefined],
    ['https://sqs.eu-west-1.amazonaws.com/123456789012/orders.fifo', undefined],
    ['http://127.0.0.1:9324/000000000000/orders', undefined],
    ['HTTPS://sqs.eu-west-1.amazonaws.com/123456789012/orders', undefined],
    ['https://sqs.eu-west-1.amazonaws.com/123456789012', sqsShape],
    ['https://sqs.eu-west-1.amazonaws.com/123456789012/orders/more', sqsShape],
    ['https://sqs.eu-west-1.amazonaws.com/123456789012/orders?Action=SendMessage', sqsShape],
    ['https://sqs.eu-west-1.amazonaws.com/123456789012/orders.txt', sqsShape],
    [`https://sqs.eu-west-1.amazonaws.com/123456789012/${'q'.repeat(81)}`, sqsShape],
    ['amqps://mq.example.com/123456789012/orders', 'sqs destinations take https or http URLs, not amqps'],
  ] as const)('%s with an sqs destination: %s', (url, problem) => {
    const run = () => assertUrlFitsDestination(url, 'sqs', 'url', false);
    if (!problem) return expect(run).not.toThrow();
    expect(run).toThrow(problem);
  });
});
