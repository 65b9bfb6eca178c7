import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { assertPortFree, getFreePort, isPortFree, PortInUseError } from '../../../stack/runtime/ports';

describe('port checks', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  it('names the port and the variable that changes it when the port is taken', async () => {
    const port = await getFreePort();
    server = createServer().listen(port, '127.0.0.1');
    await new Promise((r) => server!.once('listening', r));
    expect(await isPortFree(port)).toBe(false);
    const err = await assertPortFree(port, 'TEMPORAL_PORT', 'Temporal gRPC').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortInUseError);
    expect((err as Error).message).toBe(
      `Port ${port} (Temporal gRPC) is already in use. Stop whatever is listening there, or set TEMPORAL_PORT to a free port.`,
    );
  });

  it('never hands out one port twice in a process, though the OS offers a closed one again', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 500; i++) ports.push(await getFreePort());
    expect(new Set(ports).size).toBe(500);
  });

  it('passes for a free port', async () => {
    const port = await getFreePort();
    await expect(assertPortFree(port, 'PORT', 'API')).resolves.toBeUndefined();
  });
});
