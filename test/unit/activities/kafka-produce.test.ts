import { describe, expect, it } from 'vitest';
import { KafkaPool, type ProduceRequest } from '../../../activities/kafka-produce';

const request = (over: Partial<ProduceRequest>): ProduceRequest => ({
  subscriptionId: 'sub_1',
  url: 'kafka://kafka.example.com:9092',
  brokers: [],
  topic: 't',
  key: 'order:1',
  messageId: 'evt_1',
  body: '{}',
  headers: {},
  timeoutMs: 2000,
  allowPrivate: false,
  ...over,
});

describe('the Kafka pool under the address policy', () => {
  it.each([
    ['a private IP in url', { url: 'kafka://10.1.2.3:9092' }, /10\.1\.2\.3 is a private address/],
    ['a loopback further broker', { brokers: ['127.0.0.1:9092'] }, /127\.0\.0\.1 is a loopback address/],
    ['a service port', { url: 'kafka://kafka.example.com:5432' }, /port 5432 \(PostgreSQL\) is not allowed/],
    ['the egress proxy', { proxied: true }, /DELIVERY_PROXY_URL/],
  ] as const)('blocks %s before connecting', async (_what, over, error) => {
    const pool = new KafkaPool();
    const r = await pool.produce(request(over));
    expect(r).toMatchObject({ outcome: 'blocked' });
    expect('error' in r ? r.error : '').toMatch(error);
    expect(pool.size).toBe(0);
  });

  it('blocks a broker name that resolves to a private address, at connect time', async () => {
    const pool = new KafkaPool();
    const r = await pool.produce(request({ url: 'kafka://localhost:19092' }));
    expect(r).toMatchObject({ outcome: 'blocked' });
    await pool.close();
  });
});
