import { Client, type ClientOptions, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';

/**
 * A Temporal client that connects lazily and retries on next use, so the API starts and
 * serves while Temporal is down (readiness reports it) and recovers when it is back.
 */
export class TemporalGateway {
  private pending: Promise<Client> | undefined;
  private connection: Connection | undefined;

  constructor(
    private readonly address: string,
    private readonly namespace: string,
    /** Starts and signals carry the active trace into the workflow (the worker must trace too). */
    private readonly opts: { traced?: boolean } = {},
  ) {}

  /** The connected client; rejects if Temporal cannot be reached right now. */
  client(): Promise<Client> {
    this.pending ??= Connection.connect({ address: this.address, connectTimeout: 2000 }).then(
      (connection) => {
        this.connection = connection;
        const interceptors: ClientOptions['interceptors'] = this.opts.traced ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : {};
        return new Client({ connection, namespace: this.namespace, interceptors });
      },
      (err: unknown) => {
        this.pending = undefined;
        throw err;
      },
    );
    return this.pending;
  }

  /** Pings the frontend's health service with a short deadline. */
  async ping(timeoutMs = 2000): Promise<void> {
    await this.client();
    const connection = this.connection!;
    await connection.withDeadline(Date.now() + timeoutMs, () => connection.healthService.check({}));
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.pending = undefined;
    this.connection = undefined;
    await connection?.close();
  }
}
