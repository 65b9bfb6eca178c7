/** Scenario b, broker: the throughput run delivered to a message broker (a Redis stream) instead of HTTP. */
import { closedLoop } from '../../../stack/harness/api-client';
import { createStreamSubscription, newSecret } from '../../../stack/harness/subscribe';
import { type Ctx, quiesce, r3 } from '../context';
import { awaitDeliveries } from '../outcome';
import { onSubscriptionsOfItsOwn, throughput } from './throughput';

/** The receiver tag of the broker subscription's entries. */
const tag = 'redis';

/**
 * `--events` events to one Redis Streams subscription alone (the scenario's M set aside), as
 * fast as C clients order, with the receiver process consuming the stream: deliveries/s and CPU
 * per delivery of a broker destination, to set beside the HTTP run at M=1 (`fanouts`). The
 * broker's CPU (redis-server, the `broker` role) is shown apart like the receiver's, not counted.
 * A few orders first load the worker's Redis client and open its pooled connection.
 */
export async function brokerThroughput(ctx: Ctx) {
  const broker = ctx.broker;
  if (!broker) throw new Error('broker: the bench started no broker (the scenario was not chosen at start)');
  const secret = newSecret();
  await ctx.receiver.request({ type: 'configure', secrets: { [tag]: secret }, sampleEvery: ctx.opts.sampleEvery });
  await ctx.receiver.request({ type: 'consume', tag, redis: { url: broker.url, password: broker.password, stream: broker.stream } });
  const run = await onSubscriptionsOfItsOwn(
    ctx,
    async (add) => add(tag, await createStreamSubscription(ctx.api, broker, tag, secret)),
    async () => {
      await ctx.receiver.request({ type: 'reset' });
      await awaitDeliveries(ctx, 'broker warm-up', await closedLoop(3, 3, () => ctx.api.createOrder()), true);
      await quiesce(ctx, 'broker warm-up');
      return throughput(ctx, ctx.opts.events, 'broker: Redis Streams, 1 subscription');
    },
  );
  const per = (cpuSeconds: number | undefined) => r3(((cpuSeconds ?? 0) * 1000) / Math.max(1, run.delivered));
  return {
    kind: 'redis' as const,
    ...run,
    /** redis-server's CPU per delivery (apart: the broker is the subscriber's, not the service's). */
    brokerCpuMsPerDelivery: per(run.cpu.perRole.broker),
    /** The receiver process's, here the stream's consumer. */
    consumerCpuMsPerDelivery: per(run.cpu.perRole.receiver),
  };
}
