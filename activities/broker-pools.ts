import { DEFAULT_BROKER_CLOSE_MS } from './broker-pool';
import { KafkaPool, type Produce } from './kafka-produce';
import { type NatsPublish, NatsPool } from './nats-publish';
import { type Publish, RabbitPool } from './rabbitmq-publish';
import { type RedisPublish, RedisPool } from './redis-publish';
import { type SqsSend, SqsPool } from './sqs-send';

/**
 * A worker's broker connections: one pool per broker kind, each made on that kind's first
 * delivery (a worker that only POSTs never opens, nor loads, a broker client). One per worker
 * process, kept across rebuilds of the Temporal worker, and closed once it stopped running
 * activities (see {@link BrokerPools.close}).
 */
export class BrokerPools {
  #rabbit: RabbitPool | undefined;
  #nats: NatsPool | undefined;
  #redis: RedisPool | undefined;
  #kafka: KafkaPool | undefined;
  #sqs: SqsPool | undefined;

  /** Publishes to a RabbitMQ destination. */
  readonly publish: Publish = (req) => (this.#rabbit ??= new RabbitPool()).publish(req);
  /** Publishes to a NATS JetStream destination. */
  readonly publishNats: NatsPublish = (req) => (this.#nats ??= new NatsPool()).publish(req);
  /** Adds to a Redis Streams destination. */
  readonly publishRedis: RedisPublish = (req) => (this.#redis ??= new RedisPool()).publish(req);
  /** Produces to a Kafka destination. */
  readonly produce: Produce = (req) => (this.#kafka ??= new KafkaPool()).produce(req);
  /** Sends to an SQS destination. */
  readonly sendSqs: SqsSend = (req) => (this.#sqs ??= new SqsPool()).send(req);

  /**
   * Closes every open connection, each given at most `timeoutMs` (a broker that does not answer
   * must not hold the stop); resolves with how many did not close in time, left to end with the
   * process. Deliveries after it open new connections.
   */
  async close(timeoutMs = DEFAULT_BROKER_CLOSE_MS): Promise<number> {
    const pools = [this.#rabbit, this.#nats, this.#redis, this.#kafka, this.#sqs].filter((p) => p !== undefined);
    const left = await Promise.all(pools.map((p) => p.close(timeoutMs)));
    return left.reduce((a, b) => a + b, 0);
  }
}
