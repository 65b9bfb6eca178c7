import { Client, type ClientOptions, Connection, type ConnectionOptions, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { synchronousCallContext } from './call-context';
import { startDeadline } from './start-deadline';

// How long a workflow start may take before its caller gives up and leaves it to the relay.
const DEFAULT_START_DEADLINE_MS = 2000;
import type { NativeConnection } from '@temporalio/worker';

/**
 * A Temporal client that connects lazily and retries on next use, so the API starts and
 * serves while Temporal is down (readiness reports it) and recovers when it is back.
 */
export class TemporalGateway {
  private pending: Promise<Client> | undefined;
  private connection: Connection | NativeConnection | undefined;
  /** Over a NativeConnection that a worker of this process shares ({@link nativeConnection}): its starts may be eager. */
  readonly native: boolean;

  constructor(
    private readonly address: string,
    private readonly namespace: string,
    private readonly opts: {
      /** Starts and signals carry the active trace into the workflow (the worker must trace too). */
      traced?: boolean;
      /** A workflow start still unanswered after this long fails (DEADLINE_EXCEEDED), retries included. */
      startDeadlineMs?: number;
      /** Over a NativeConnection a worker of this process shares: its starts may be eager. */
      native?: boolean;
    } = {},
  ) {
    this.native = opts.native ?? false;
  }

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

  /** The client's NativeConnection, for a worker to share (only with `native`). */
  async nativeConnection(): Promise<NativeConnection> {
    if (!this.native) throw new Error('TemporalGateway: nativeConnection() needs { native: true }');
    await this.client();
    return this.connection as NativeConnection;
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

  /** How long a workflow start may take before it is left to the relay. */
  get startDeadlineMs(): number {
    return this.opts.startDeadlineMs ?? DEFAULT_START_DEADLINE_MS;
  }

  private async connect(): Promise<Connection | NativeConnection> {
    if (this.native) {
      // Loaded only here: an API without a worker does not load the SDK's native core. It takes no
      // gRPC interceptors: the dispatcher stops waiting for its starts instead (see EventDispatcher).
      const { NativeConnection } = await import('@temporalio/worker');
      return NativeConnection.connect({ address: this.address });
    }
    const options: ConnectionOptions = {
      address: this.address,
      connectTimeout: 2000,
      // Outermost first: the deadline bounds the start with all its retries.
      interceptors: [startDeadline(this.startDeadlineMs), makeGrpcRetryInterceptor(defaultGrpcRetryOptions())],
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
}
