import type { OpenApiDocument } from '../contract/openapi';
import type { OperationId, SubscriptionVersion } from '../contract/types';

/** The contract's subscribe operations: `createSubscriptionV1`, `createSubscriptionV2`, ... and the unversioned alias. */
export type SubscribeOperationId = Extract<OperationId, `createSubscription${string}`>;

/**
 * Each subscribe operation of the contract, with its path and the envelope version its
 * subscriptions get. Keyed by operation id so that a version added to the contract
 * (`createSubscriptionV3`) is a compile error here until it is routed (docs/versioning.md).
 */
export const subscribeOperations: { readonly [K in SubscribeOperationId]: { readonly path: string; readonly version: SubscriptionVersion } } = {
  createSubscriptionLegacy: { path: '/api/webhooks/subscribe', version: 1 }, // the spec's unversioned alias of v1
  createSubscriptionV1: { path: '/api/webhooks/v1/subscribe', version: 1 },
  createSubscriptionV2: { path: '/api/webhooks/v2/subscribe', version: 2 },
};

/** The subscribe operations as a list, in the order above. */
export const subscribeRoutes = (Object.entries(subscribeOperations) as Array<[SubscribeOperationId, { path: string; version: SubscriptionVersion }]>).map(
  ([operationId, { path, version }]) => ({ operationId, path, version }),
);

/** A deprecated envelope version, as its subscribe operations in the contract declare it. */
export interface VersionDeprecation {
  version: SubscriptionVersion;
  /** `x-deprecated-at`: when the deprecation took effect (the `Deprecation` header). */
  deprecatedAt: Date;
  /** `x-sunset`: when the version is retired (the `Sunset` header). */
  sunset: Date;
}

/** The shortest time between a version's deprecation and its sunset (docs/versioning.md). */
export const minimumSunsetDays = 180;

interface SubscribeOperation {
  operationId?: string;
  deprecated?: boolean;
  'x-deprecated-at'?: unknown;
  'x-sunset'?: unknown;
}

function dateOf(value: unknown, what: string): Date {
  const date = typeof value === 'string' || value instanceof Date ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new Error(`${what} must be a date-time, not ${JSON.stringify(value)}`);
  return date;
}

/**
 * The deprecated versions, read from the contract's subscribe operations (`deprecated: true`
 * with `x-deprecated-at` and `x-sunset`). Every operation of a version must say the same, and
 * the sunset must come at least {@link minimumSunsetDays} after the deprecation: a contract
 * that breaks either stops the process at start, naming the operation.
 */
export function versionDeprecations(contract: OpenApiDocument): ReadonlyMap<SubscriptionVersion, VersionDeprecation> {
  const paths = (contract.paths ?? {}) as Record<string, { post?: SubscribeOperation }>;
  const byVersion = new Map<SubscriptionVersion, { operationId: string; deprecation: VersionDeprecation | undefined }>();
  for (const { operationId, path, version } of subscribeRoutes) {
    const op = paths[path]?.post;
    if (op?.operationId !== operationId) throw new Error(`the contract has no ${operationId} at POST ${path}`);
    let deprecation: VersionDeprecation | undefined;
    if (op.deprecated) {
      const deprecatedAt = dateOf(op['x-deprecated-at'], `${operationId} is deprecated: its x-deprecated-at`);
      const sunset = dateOf(op['x-sunset'], `${operationId} is deprecated: its x-sunset`);
      if (sunset.getTime() - deprecatedAt.getTime() < minimumSunsetDays * 86_400_000) {
        throw new Error(`${operationId}: x-sunset must be at least ${minimumSunsetDays} days after x-deprecated-at`);
      }
      deprecation = { version, deprecatedAt, sunset };
    } else if (op['x-deprecated-at'] !== undefined || op['x-sunset'] !== undefined) {
      throw new Error(`${operationId} has x-deprecated-at or x-sunset but not deprecated: true`);
    }
    const seen = byVersion.get(version);
    if (seen && JSON.stringify(seen.deprecation) !== JSON.stringify(deprecation)) {
      throw new Error(`${operationId} and ${seen.operationId} are both version ${version} but disagree on its deprecation`);
    }
    byVersion.set(version, { operationId, deprecation });
  }
  return new Map([...byVersion].flatMap(([version, { deprecation }]) => (deprecation ? [[version, deprecation] as const] : [])));
}

/**
 * The headers every response of a deprecated version's subscribe path carries: `Deprecation`
 * (RFC 9745, `@` and Unix seconds), `Sunset` (RFC 8594, an HTTP-date) and a `Link` to the
 * operation's documentation with both relations.
 */
export function deprecationHeaders(d: VersionDeprecation, operationId: SubscribeOperationId): Record<'Deprecation' | 'Sunset' | 'Link', string> {
  const docs = `</docs#operation/${operationId}>`;
  return {
    Deprecation: `@${Math.floor(d.deprecatedAt.getTime() / 1000)}`,
    Sunset: d.sunset.toUTCString(),
    Link: `${docs}; rel="deprecation"; type="text/html", ${docs}; rel="sunset"; type="text/html"`,
  };
}
