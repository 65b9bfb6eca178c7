import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { ackDeadlineMs, assertUrlFitsDestination, openDestination, resealDestination, sealDestination, viewDestination } from '../../../src/subscriptions/destination';
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
});
