import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { assertUrlFitsDestination, hasBrokerCredentials, openDestination, resealDestination, sealDestination, viewDestination } from '../../../src/subscriptions/destination';
import { SecretBox } from '../../../src/subscriptions/secret-box';
import { orderingKey } from '../../../src/webhooks/ordering-key';
import { callbackPortProblem } from '../../../src/webhooks/address-policy';
import { destinationBody, emptyDestinationFields } from '../../../src/portal/ui/destination-fields';
import { checkHosts, type FieldContext } from '../../../src/subscriptions/fields';
import { checkCallbackUrl } from '../../../src/webhooks/callback-url';

const oldBox = new SecretBox({ id: 'k1', key: Buffer.alloc(32, 1) });
const box = new SecretBox({ id: 'k2', key: Buffer.alloc(32, 2) }, [{ id: 'k1', key: Buffer.alloc(32, 1) }]);
const kafka = { type: 'kafka' as const, topic: 'orders', brokers: ['k2.example.com:9093'], sasl_mechanism: 'scram-sha-512' as const, username: 'hooks', password: 'broker-password' };

describe('a Kafka destination', () => {
  it('seals its SASL credentials, shows them masked, and opens them for the worker', () => {
    const stored = sealDestination(box, 'sub_1', kafka)!;
    expect(JSON.stringify(stored)).not.toMatch(/"hooks"|broker-password/);
    expect(hasBrokerCredentials(stored)).toBe(true);
    expect(viewDestination(stored)).toEqual({ type: 'kafka', topic: 'orders', brokers: ['k2.example.com:9093'], sasl_mechanism: 'scram-sha-512', username: '********', password: '********' });
    expect(openDestination(box, 'sub_1', stored)).toEqual({ type: 'kafka', topic: 'orders', brokers: ['k2.example.com:9093'], sasl: { mechanism: 'scram-sha-512', username: 'hooks', password: 'broker-password' } });
    expect(() => openDestination(box, 'sub_2', stored)).toThrow();
  });

  it('needs no credentials (a cluster without SASL), and then shows none', () => {
    const stored = sealDestination(box, 'sub_1', { type: 'kafka', topic: 'orders' })!;
    expect(stored).toEqual({ type: 'kafka', topic: 'orders' });
    expect(hasBrokerCredentials(stored)).toBe(false);
    expect(viewDestination(stored)).toEqual({ type: 'kafka', topic: 'orders' });
    expect(openDestination(box, 'sub_1', stored)).toEqual({ type: 'kafka', topic: 'orders', brokers: [] });
    expect(resealDestination(box, 'sub_1', stored)).toBe(stored);
  });

  it('takes SASL user and password together, with 422 naming the one missing', () => {
    const noPassword = { type: 'kafka' as const, topic: 'orders', username: 'hooks' };
    expect(() => sealDestination(box, 'sub_1', noPassword)).toThrow(DomainError);
    try {
      sealDestination(box, 'sub_1', noPassword);
    } catch (err) {
      expect((err as DomainError).errors).toEqual([{ field: ['destination', 'password'], message: 'SASL needs both username and password; password is missing' }]);
    }
    expect(() => sealDestination(box, 'sub_1', { type: 'kafka', topic: 't', sasl_mechanism: 'plain' })).toThrow(/username is missing/);
  });

  it('reseals credentials stored under an old key', () => {
    const fresh = resealDestination(box, 'sub_1', sealDestination(oldBox, 'sub_1', kafka)!);
    expect(fresh.type === 'kafka' && fresh.credentials).toMatch(/^enc:v1:k2:/);
  });

  it.each([
    ['kafka://k.example.com:9092', undefined],
    ['kafkas://k.example.com', undefined],
    ['KAFKAS://k.example.com:9093/', undefined],
    ['kafka://k.example.com:9092/orders', 'a kafka url is a bootstrap broker, kafka(s)://host[:port], with nothing after the port (the topic goes in destination.topic)'],
    ['https://k.example.com', 'kafka destinations take kafkas or kafka URLs, not https'],
  ] as const)('%s: %s', (url, problem) => {
    const run = () => assertUrlFitsDestination(url, 'kafka', 'url', false);
    if (!problem) return expect(run).not.toThrow();
    try {
      run();
      expect.fail('accepted');
    } catch (err) {
      expect((err as DomainError).errors).toEqual([{ field: ['url'], message: problem }]);
    }
  });

  it("allows Kafka's port for kafka URLs only", () => {
    expect(callbackPortProblem(9092, 'kafka:')).toBeUndefined();
    expect(callbackPortProblem(9092, 'kafkas:')).toBeUndefined();
    expect(callbackPortProblem(9092, 'https:')).toMatch(/Kafka/);
  });

  it("keys a message by the event's resource", () => {
    expect(orderingKey({ type: 'order.created', data: { order_id: 42 } })).toBe('order:42');
    expect(orderingKey({ type: 'order.updated', data: { order_id: 42 } })).toBe('order:42');
    expect(orderingKey({ type: 'stock.low', data: { product_id: 7 } })).toBe('product:7');
  });

  it('the portal builds it from its boxes, SASL only with both user and password', () => {
    const f = { ...emptyDestinationFields, topic: ' orders ', brokers: 'a.example.com:9093, b.example.com:9093' };
    expect(destinationBody('kafka', f, false)).toEqual({ destination: { type: 'kafka', topic: 'orders', brokers: ['a.example.com:9093', 'b.example.com:9093'] } });
    expect(destinationBody('kafka', { ...f, username: 'u' }, false)).toEqual({ error: 'Enter both the SASL user name and password for the Kafka destination, or neither.' });
    expect(destinationBody('kafka', { ...f, username: 'u', password: 'p', saslMechanism: 'scram-sha-256' }, false)).toMatchObject({ destination: { sasl_mechanism: 'scram-sha-256', username: 'u', password: 'p' } });
    expect(destinationBody('kafka', emptyDestinationFields, false)).toEqual({ error: 'Enter the topic for the Kafka destination.' });
  });
});

describe("a Kafka destination's further brokers", () => {
  const ctx = { checkUrl: (raw: string, schemes?: readonly string[]) => checkCallbackUrl(raw, { allowPrivate: false, ...(schemes ? { schemes } : {}), resolve: () => Promise.resolve(['93.184.216.34']) }) } as unknown as FieldContext;

  it('pass the address rules of url, the one refused named', async () => {
    const body = (brokers: string[]) => ({ url: 'kafkas://k1.example.com:9093', events: ['order.created' as const], destination: { type: 'kafka' as const, topic: 't', brokers } });
    await expect(checkHosts(body(['k2.example.com:9092', 'k3.example.com:9093']), ctx)).resolves.toBeUndefined();
    await expect(checkHosts(body(['k2.example.com:9093', '10.0.0.7:9093']), ctx)).rejects.toMatchObject({ errors: [{ field: ['destination', 'brokers', 1], message: 'host 10.0.0.7 is a private address' }] });
    await expect(checkHosts(body(['k2.example.com:22']), ctx)).rejects.toMatchObject({ errors: [{ field: ['destination', 'brokers', 0] }] });
  });
});
