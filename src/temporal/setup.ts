import type { Connection } from '@temporalio/client';
// With its extension: the package has no exports map, and the compiled build runs under Node's ESM loader.
import { msToTs } from '@temporalio/common/lib/time.js';
import { searchAttributes } from './search-attributes';

/** The two services setup calls; a `@temporalio/client` Connection or the worker's NativeConnection has both. */
export type SetupServices = Pick<Connection, 'workflowService' | 'operatorService'>;

type SearchAttributeType = (typeof searchAttributes)[keyof typeof searchAttributes];

/** temporal.api.enums.v1.IndexedValueType, for the types this service uses. */
const indexedValueTypes: Record<SearchAttributeType, number> = { Keyword: 2, KeywordList: 7 };

/** gRPC status codes setup tells apart. */
const grpc = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, ALREADY_EXISTS: 6, PERMISSION_DENIED: 7, UNIMPLEMENTED: 12, UNAUTHENTICATED: 16 } as const;

export interface SetupOptions {
  namespace: string;
  /** Workflow history retention of a namespace setup creates (an existing namespace keeps its own). */
  retentionDays?: number;
  /** How long to wait for a namespace just created to answer (the frontend caches namespaces). */
  namespaceReadyTimeoutMs?: number;
}

export interface SetupResult {
  namespaceCreated: boolean;
  /** Search attributes this run registered; empty when all were there. */
  added: string[];
}

/**
 * What setup could not do itself (no permission on a managed cluster, an attribute registered
 * with another type); the message names the commands an operator runs instead.
 */
export class TemporalSetupError extends Error {
  override readonly name = 'TemporalSetupError';
  constructor(
    message: string,
    readonly commands: string[],
  ) {
    super(`${message}\nRun instead, with an account that may:\n${commands.map((c) => `  ${c}`).join('\n')}`);
  }
}

/** The `temporal` CLI command that creates the namespace. */
export function namespaceCommand(namespace: string, retentionDays = 30): string {
  return `temporal operator namespace create --namespace ${namespace} --retention ${retentionDays * 24}h`;
}

/** The `temporal` CLI commands that register these search attributes. */
export function searchAttributeCommands(namespace: string, names: readonly string[]): string[] {
  return names.map((name) => `temporal operator search-attribute create --namespace ${namespace} --name ${name} --type ${searchAttributes[name as keyof typeof searchAttributes]}`);
}

function grpcCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

const refused = (err: unknown) => grpcCode(err) === grpc.PERMISSION_DENIED || grpcCode(err) === grpc.UNAUTHENTICATED || grpcCode(err) === grpc.UNIMPLEMENTED;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Makes sure the namespace exists and the search attributes the event workflows set are
 * registered on it; idempotent, run by every worker at start (a worker on a namespace missing
 * them fails every workflow task). Throws {@link TemporalSetupError} for what it may not do;
 * other errors (Temporal unreachable) are thrown as they are, for the caller to retry.
 */
export async function ensureTemporalSetup(services: SetupServices, opts: SetupOptions): Promise<SetupResult> {
  const { namespace } = opts;
  const namespaceCreated = await ensureNamespace(services, opts);
  const wanted = Object.keys(searchAttributes);
  const existing = await untilNamespaceAnswers(() => services.operatorService.listSearchAttributes({ namespace }), opts, namespaceCreated).catch((err: unknown) => {
    if (refused(err)) {
      throw new TemporalSetupError(`Could not list the search attributes of namespace ${namespace} (${errorText(err)}).`, searchAttributeCommands(namespace, wanted));
    }
    throw err;
  });
  const custom = existing.customAttributes ?? {};
  const conflicts = wanted.filter((name) => custom[name] !== undefined && Number(custom[name]) !== indexedValueTypes[searchAttributes[name as keyof typeof searchAttributes]]);
  if (conflicts.length > 0) {
    throw new TemporalSetupError(
      `Search attributes ${conflicts.join(', ')} exist on namespace ${namespace} with another type; the event workflows need ${conflicts.map((n) => `${n}=${searchAttributes[n as keyof typeof searchAttributes]}`).join(', ')}.`,
      [...conflicts.map((name) => `temporal operator search-attribute remove --namespace ${namespace} --name ${name}`), ...searchAttributeCommands(namespace, conflicts)],
    );
  }
  const missing = wanted.filter((name) => custom[name] === undefined);
  if (missing.length > 0) {
    const request = Object.fromEntries(missing.map((name) => [name, indexedValueTypes[searchAttributes[name as keyof typeof searchAttributes]]]));
    await services.operatorService.addSearchAttributes({ namespace, searchAttributes: request }).catch((err: unknown) => {
      // Another worker starting at the same moment registered them first.
      if (grpcCode(err) === grpc.ALREADY_EXISTS) return;
      if (refused(err)) {
        throw new TemporalSetupError(`Could not register search attributes ${missing.join(', ')} on namespace ${namespace} (${errorText(err)}).`, searchAttributeCommands(namespace, missing));
      }
      // E.g. a SQL visibility store out of columns of a type (PostgreSQL: 10 Keyword, 3 KeywordList per namespace).
      if (grpcCode(err) === grpc.INVALID_ARGUMENT) {
        throw new TemporalSetupError(`The cluster refused search attributes ${missing.join(', ')} on namespace ${namespace} (${errorText(err)}).`, searchAttributeCommands(namespace, missing));
      }
      throw err;
    });
    await untilAttributesUsable(services, namespace, missing, opts);
  }
  return { namespaceCreated, added: missing };
}

async function ensureNamespace(services: SetupServices, opts: SetupOptions): Promise<boolean> {
  const { namespace } = opts;
  try {
    await services.workflowService.describeNamespace({ namespace });
    return false;
  } catch (err) {
    if (refused(err)) {
      // Some managed clusters let a worker's key use a namespace but not describe it: carry on.
      return false;
    }
    if (grpcCode(err) !== grpc.NOT_FOUND) throw err;
  }
  const retentionDays = opts.retentionDays ?? 30;
  try {
    await services.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(retentionDays * 24 * 3600_000),
      description: 'webhook-service deliveries',
    });
    return true;
  } catch (err) {
    if (grpcCode(err) === grpc.ALREADY_EXISTS) return false;
    if (refused(err)) {
      throw new TemporalSetupError(`Namespace ${namespace} does not exist and could not be created (${errorText(err)}).`, [
        namespaceCommand(namespace, retentionDays),
        ...searchAttributeCommands(namespace, Object.keys(searchAttributes)),
      ]);
    }
    throw err;
  }
}

/**
 * Attributes just added are listed at once but usable (in a start request, a query) only once the
 * frontend's namespace cache refreshes: on a cluster, a workflow started in between is refused
 * with "has no mapping defined for search attribute". A query naming them all tells when.
 */
async function untilAttributesUsable(services: SetupServices, namespace: string, names: readonly string[], opts: SetupOptions): Promise<void> {
  const query = names.map((name) => `${name} = 'setup-probe'`).join(' AND ');
  const deadline = Date.now() + (opts.namespaceReadyTimeoutMs ?? 60_000);
  for (;;) {
    try {
      await services.workflowService.countWorkflowExecutions({ namespace, query });
      return;
    } catch (err) {
      // Best effort: the attributes are registered; a server that cannot answer this query
      // (no permission to count, a visibility store without queries) is not waited for.
      if (grpcCode(err) !== grpc.INVALID_ARGUMENT || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** A namespace just created answers once the frontend's namespace cache has it (about 10 s). */
async function untilNamespaceAnswers<T>(call: () => Promise<T>, opts: SetupOptions, justCreated: boolean): Promise<T> {
  const deadline = Date.now() + (opts.namespaceReadyTimeoutMs ?? 60_000);
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!justCreated || grpcCode(err) !== grpc.NOT_FOUND || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
