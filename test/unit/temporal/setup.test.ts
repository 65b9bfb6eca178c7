import { describe, expect, it } from 'vitest';
import { MongoServerError } from 'mongodb';
import { databaseSetupError } from '../../../src/db/indexes';
import { ensureTemporalSetup, type SetupServices, TemporalSetupError } from '../../../src/temporal/setup';

const grpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
const permissionDenied = () => grpcError(7, '7 PERMISSION_DENIED: Request unauthorized.');

/** A fake frontend: which namespaces exist, their custom attributes, and what the caller may do. */
function fakeServices(opts: { namespaces?: Record<string, Record<string, number>>; mayRegister?: boolean; mayAddAttributes?: boolean; addRefusal?: Error; unmappedQueries?: number; mayCount?: boolean }) {
  let unmapped = opts.unmappedQueries ?? 0;
  const namespaces = opts.namespaces ?? {};
  const calls: string[] = [];
  // The real services answer asynchronously; these fakes at once.
  /* eslint-disable @typescript-eslint/require-await */
  const services = {
    workflowService: {
      describeNamespace: async ({ namespace }: { namespace: string }) => {
        calls.push(`describe ${namespace}`);
        if (!namespaces[namespace]) throw grpcError(5, `5 NOT_FOUND: Namespace ${namespace} is not found.`);
        return {};
      },
      registerNamespace: async ({ namespace }: { namespace: string }) => {
        calls.push(`register ${namespace}`);
        if (opts.mayRegister === false) throw permissionDenied();
        namespaces[namespace] = {};
        return {};
      },
      countWorkflowExecutions: async ({ namespace, query }: { namespace: string; query: string }) => {
        calls.push(`count ${namespace} ${query}`);
        if (opts.mayCount === false) throw permissionDenied();
        // As a cluster's frontend does until its namespace cache has the new attributes.
        if (unmapped-- > 0) throw grpcError(3, `3 INVALID_ARGUMENT: Namespace ${namespace} has no mapping defined for search attribute WebhookEventId`);
        return { count: 0 };
      },
    },
    operatorService: {
      listSearchAttributes: async ({ namespace }: { namespace: string }) => {
        calls.push(`list ${namespace}`);
        return { customAttributes: { ...namespaces[namespace] } };
      },
      addSearchAttributes: async ({ namespace, searchAttributes }: { namespace: string; searchAttributes: Record<string, number> }) => {
        calls.push(`add ${namespace} ${Object.keys(searchAttributes).join(',')}`);
        if (opts.mayAddAttributes === false) throw permissionDenied();
        if (opts.addRefusal) throw opts.addRefusal;
        Object.assign(namespaces[namespace]!, searchAttributes);
        return {};
      },
    },
  } as unknown as SetupServices;
  /* eslint-enable @typescript-eslint/require-await */
  return { services, calls, namespaces };
}

const all = ['WebhookEventId', 'WebhookEventType', 'WebhookSubscriptionIds', 'WebhookDeliveryState', 'WebhookRetryingSubscriptionIds', 'WebhookFailedSubscriptionIds'];

describe('Temporal setup at worker start', () => {
  it('creates a missing namespace, registers every attribute with its type, and a second run changes nothing', async () => {
    const fake = fakeServices({});
    expect(await ensureTemporalSetup(fake.services, { namespace: 'hooks' })).toEqual({ namespaceCreated: true, added: all });
    expect(fake.namespaces.hooks).toMatchObject({ WebhookEventId: 2, WebhookSubscriptionIds: 7 });
    fake.calls.length = 0;
    expect(await ensureTemporalSetup(fake.services, { namespace: 'hooks' })).toEqual({ namespaceCreated: false, added: [] });
    expect(fake.calls).toEqual(['describe hooks', 'list hooks']);
  });

  it('returns only once the attributes it added are usable, as a frontend caching the namespace makes them late', async () => {
    const fake = fakeServices({ namespaces: { hooks: {} }, unmappedQueries: 2 });
    expect(await ensureTemporalSetup(fake.services, { namespace: 'hooks' })).toEqual({ namespaceCreated: false, added: all });
    const counts = fake.calls.filter((c) => c.startsWith('count'));
    expect(counts).toHaveLength(3);
    for (const name of all) expect(counts[2]).toContain(`${name} = 'setup-probe'`);
  });

  it('does not wait for a server that will not answer the query: the attributes are registered', async () => {
    const fake = fakeServices({ namespaces: { hooks: {} }, mayCount: false });
    expect(await ensureTemporalSetup(fake.services, { namespace: 'hooks' })).toEqual({ namespaceCreated: false, added: all });
    expect(fake.calls.filter((c) => c.startsWith('count'))).toHaveLength(1);
  });

  it('a cluster refusing the attributes (a SQL visibility store out of KeywordList columns) is named, with the commands', async () => {
    const refusal = grpcError(3, '3 INVALID_ARGUMENT: Unable to create search attributes: cannot have more than 3 search attribute of type KeywordList.');
    const fake = fakeServices({ namespaces: { hooks: {} }, addRefusal: refusal });
    const err = (await ensureTemporalSetup(fake.services, { namespace: 'hooks' }).catch((e: unknown) => e)) as TemporalSetupError;
    expect(err).toBeInstanceOf(TemporalSetupError);
    expect(err.message).toContain('cannot have more than 3 search attribute of type KeywordList');
    expect(err.commands).toHaveLength(all.length);
  });

  it('without permission to add attributes, fails naming the exact commands for the missing ones', async () => {
    const fake = fakeServices({ namespaces: { prod: { WebhookEventId: 2, WebhookEventType: 2, WebhookDeliveryState: 2 } }, mayAddAttributes: false });
    const err = await ensureTemporalSetup(fake.services, { namespace: 'prod' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemporalSetupError);
    const { message, commands } = err as TemporalSetupError;
    expect(message).toContain('PERMISSION_DENIED');
    expect(commands).toEqual([
      'temporal operator search-attribute create --namespace prod --name WebhookSubscriptionIds --type KeywordList',
      'temporal operator search-attribute create --namespace prod --name WebhookRetryingSubscriptionIds --type KeywordList',
      'temporal operator search-attribute create --namespace prod --name WebhookFailedSubscriptionIds --type KeywordList',
    ]);
    for (const command of commands) expect(message).toContain(command);
  });

  it('without permission to create the namespace, names the namespace command and every attribute command', async () => {
    const fake = fakeServices({ mayRegister: false });
    const err = (await ensureTemporalSetup(fake.services, { namespace: 'hooks', retentionDays: 7 }).catch((e: unknown) => e)) as TemporalSetupError;
    expect(err).toBeInstanceOf(TemporalSetupError);
    expect(err.message).toContain('Namespace hooks does not exist and could not be created');
    expect(err.commands[0]).toBe('temporal operator namespace create --namespace hooks --retention 168h');
    expect(err.commands).toHaveLength(1 + all.length);
  });

  it('refuses an attribute registered with another type, saying how to replace it', async () => {
    const fake = fakeServices({ namespaces: { hooks: { WebhookSubscriptionIds: 2 } } });
    const err = (await ensureTemporalSetup(fake.services, { namespace: 'hooks' }).catch((e: unknown) => e)) as TemporalSetupError;
    expect(err.message).toContain('WebhookSubscriptionIds=KeywordList');
    expect(err.commands).toContain('temporal operator search-attribute remove --namespace hooks --name WebhookSubscriptionIds');
    expect(fake.calls.some((c) => c.startsWith('add'))).toBe(false);
  });

  it('passes Temporal being unreachable through, for the worker to retry like any outage', async () => {
    const unavailable = grpcError(14, '14 UNAVAILABLE: connection refused');
    const services = { workflowService: { describeNamespace: () => Promise.reject(unavailable) } } as unknown as SetupServices;
    await expect(ensureTemporalSetup(services, { namespace: 'hooks' })).rejects.toBe(unavailable);
  });
});

describe('MongoDB index setup failures', () => {
  it('an unauthorized user is told the role to grant and the mongosh commands to run instead', () => {
    const err = databaseSetupError('webhooks', new MongoServerError({ message: 'not authorized on webhooks to execute command { createIndexes: "events" }', code: 13 }));
    expect(err.message).toContain('Not allowed to create the indexes of database webhooks');
    expect(err.message).toContain('readWrite role on webhooks');
    expect(err.message).toMatch(/db\.getCollection\("events"\)\.createIndex\(\{.*\}, \{"name":/);
  });

  it('an unreachable server is named as such', () => {
    expect(databaseSetupError('webhooks', new Error('connect ECONNREFUSED 127.0.0.1:27017')).message).toBe(
      'MongoDB did not answer while preparing database webhooks (connect ECONNREFUSED 127.0.0.1:27017); check MONGODB_URI and that the server is up.',
    );
  });
});
