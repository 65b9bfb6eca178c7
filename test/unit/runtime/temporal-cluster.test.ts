import { createServer, type Server, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterPortsAround } from '../../../stack/runtime/local-temporal-cluster';
import { getFreePort } from '../../../stack/runtime/ports';
import { clusterEnv, historyAddress, INTERNAL_PORTS_PER_NODE, startBalancer, type TemporalClusterOptions, temporalNodeArgs, temporalUiArgs } from '../../../stack/runtime/temporal-cluster';

const options: TemporalClusterOptions = {
  binary: '/bin/temporal-node',
  database: { host: '127.0.0.1', port: 54330, user: 'postgres', password: 'secret' },
  nodes: [
    { frontendPort: 7234, portBase: 7240 },
    { frontendPort: 7235, portBase: 7250 },
  ],
  balancerPort: 7233,
  uiPort: 8233,
  namespace: 'webhooks',
  dynamicConfig: { 'matching.numTaskqueueReadPartitions': 1, 'system.enableNexus': false },
};

/** The value after `flag` in `args`, and every value when it repeats. */
const flagValues = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));

describe('temporal-node arguments', () => {
  it('give each node its own ports, one cluster address, the default 8 shards, and no password on the command line', () => {
    const [a, b] = [temporalNodeArgs(options, 0), temporalNodeArgs(options, 1)];
    expect(a[0]).toBe('start');
    expect(flagValues(a, '--frontend-port')).toEqual(['7234']);
    expect(flagValues(b, '--frontend-port')).toEqual(['7235']);
    expect(flagValues(a, '--port-base')).toEqual(['7240']);
    expect(flagValues(b, '--port-base')).toEqual(['7250']);
    expect(flagValues(a, '--cluster-address')).toEqual(flagValues(b, '--cluster-address'));
    expect(flagValues(a, '--shards')).toEqual(['8']);
    expect([...a, ...b].join(' ')).not.toContain('secret');
  });

  it('leave the UI to a process of its own, against the balancer, so no node takes it down', () => {
    for (const i of [0, 1]) expect(temporalNodeArgs(options, i).filter((a) => a.startsWith('--ui'))).toEqual([]);
    const ui = temporalUiArgs(options);
    expect(ui[0]).toBe('ui');
    expect(flagValues(ui, '--port')).toEqual(['8233']);
    expect(flagValues(ui, '--frontend-address')).toEqual(['127.0.0.1:7233']);
  });

  it('pass dynamic config as KEY=JSON', () => {
    expect(flagValues(temporalNodeArgs(options, 1), '--dynamic-config-value')).toEqual(['matching.numTaskqueueReadPartitions=1', 'system.enableNexus=false']);
  });
});

describe('cluster ports around TEMPORAL_PORT', () => {
  it('keep the balancer on TEMPORAL_PORT and every internal port below 32768, without overlap', () => {
    const { balancerPort, nodes } = clusterPortsAround(7233);
    expect(balancerPort).toBe(7233);
    expect(nodes.map((n) => n.frontendPort)).toEqual([7234, 7235]);
    const internal = nodes.flatMap((n) => Array.from({ length: INTERNAL_PORTS_PER_NODE }, (_, i) => n.portBase + i));
    expect(new Set([...internal, balancerPort, ...nodes.map((n) => n.frontendPort)]).size).toBe(internal.length + 3);
    expect(Math.max(...internal)).toBeLessThan(32768);
    expect(historyAddress(nodes[0]!)).toBe('127.0.0.1:7244');
  });

  it('the env a process needs names the balancer, the namespace and the UI', () => {
    expect(clusterEnv('127.0.0.1:7233', 'webhooks', 'http://localhost:8233')).toEqual({
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'webhooks',
      TEMPORAL_UI_URL: 'http://localhost:8233',
    });
  });
});

describe('the frontend balancer', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  /** A TCP server that answers every connection with its name. */
  async function named(name: string): Promise<number> {
    const server = createServer((socket) => socket.end(name));
    servers.push(server);
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  }

  const ask = (port: number) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(port, '127.0.0.1');
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('error', reject);
    });

  it('spreads connections over the frontends and skips one that refuses', async () => {
    const [a, b, dead] = [await named('a'), await named('b'), await getFreePort()];
    const balancer = await startBalancer(await getFreePort(), [a, dead, b]);
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await ask(balancer.port));
      expect(new Set(answers)).toEqual(new Set(['a', 'b']));
    } finally {
      await balancer.close();
    }
  });
});
