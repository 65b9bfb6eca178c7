import { Client, type ClientOptions, Connection, type ConnectionOptions, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { synchronousCallContext } from './call-context';
import { startDeadline } from './start-deadline';

// How long a workflow start may take before its caller gives up and leaves it to the relay.
const DEFAULT_START_DEADLINE_MS = 2000;

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
    private readonly opts: {
      /** Starts and signals carry the active trace into the workflow (the worker must trace too). */
      traced?: boolean;
      /** A workflow start still unanswered after this long fails (DEADLINE_EXCEEDED), retries included. */
      startDeadlineMs?: number;
    } = {},
  ) {}

  /** The connected client; rejects if Temporal cannot be reached right now. */
  client(): Promise<Client> {
    this.pending ??= this.connect().then(
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

  private async connect(): Promise<Connection> {
    const options: ConnectionOptions = {
      address: this.address,
      connectTimeout: 2000,
      // Outermost first: the deadline bounds the start with all its retries.
      interceptors: [startDeadline(this.opts.startDeadlineMs ?? DEFAULT_START_DEADLINE_MS), makeGrpcRetryInterceptor(defaultGrpcRetryOptions())],
    };
    const connection = Connection.lazy(options);
    // Before its first call: the SDK's AsyncLocalStorage would turn on promise hooks for the whole process.
    synchronousCallContext(connection.callContextStorage);
    try {
      await connection.ensureConnected();
    } catch (err) {
      await connection.close();
      throw err;
    }
    return connection;
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
