import { createServer } from 'node:net';

export { getFreePort } from '../../src/compose/dev-stack';

/** Thrown when a port the service needs is taken. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(
    readonly port: number,
    readonly variable: string,
    readonly what: string,
  ) {
    super(
      `Port ${port} (${what}) is already in use. Stop whatever is listening there, ` +
        `or set ${variable} to a free port.`,
    );
  }
}

/** True when nothing listens on `host:port`. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Throws a PortInUseError naming the variable that changes the port. */
export async function assertPortFree(port: number, variable: string, what: string, host?: string): Promise<void> {
  if (!(await isPortFree(port, host))) throw new PortInUseError(port, variable, what);
}
