import type { OperationalNotices } from '../alerts/repository';
import { decodeCursor, toPage } from '../contract/pagination';
import type { DeprecatedSubscription, DeprecatedSubscriptionList, DeprecatedVersionNotification, QueryOf, SubscriptionVersion } from '../contract/types';
import { type Repeating, repeatEvery } from '../lib/repeat';
import type { VersionDeprecation } from '../webhooks/versions';
import type { SubscriptionDoc, SubscriptionRepository } from './repository';

/** The contract's deprecated versions, by version (see `versionDeprecations`). */
export type Deprecations = ReadonlyMap<SubscriptionVersion, VersionDeprecation>;

function toDeprecated(doc: SubscriptionDoc, d: VersionDeprecation): DeprecatedSubscription {
  return {
    id: doc._id,
    owner_id: doc.owner_id,
    url: doc.url,
    events: doc.events,
    version: doc.version,
    status: doc.status,
    created_at: doc.created_at.toISOString(),
    deprecated_at: d.deprecatedAt.toISOString(),
    sunset: d.sunset.toISOString(),
  };
}

/**
 * One page of every owner's active subscriptions on a deprecated version, newest first: one
 * indexed read per deprecated version (there are few), merged by id.
 */
export async function listDeprecatedSubscriptions(
  subscriptions: SubscriptionRepository,
  deprecations: Deprecations,
  query: QueryOf<'listDeprecatedSubscriptions'>,
): Promise<DeprecatedSubscriptionList> {
  const limit = query.limit ?? 20;
  const after = decodeCursor(query.cursor);
  const pages = await Promise.all([...deprecations.keys()].map((v) => subscriptions.listActiveOnVersion(v, limit + 1, after)));
  const rows = pages
    .flat()
    .sort((a, b) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
    .slice(0, limit + 1);
  return toPage(
    rows.map((doc) => toDeprecated(doc, deprecations.get(doc.version)!)),
    limit,
  );
}

export interface DeprecationWatchDeps {
  subscriptions: Pick<SubscriptionRepository, 'countActiveOnVersion'>;
  /** The notices sent, one per version and day. */
  notices: OperationalNotices;
  deprecations: Deprecations;
  /** POSTs an operational webhook to ADMIN_ALERT_URL (a no-op without one); throws unless acknowledged. */
  notifyOperator: (id: string, body: string) => Promise<void>;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => Date;
}

/** What one check found for a deprecated version. */
export interface DeprecatedVersionUse {
  version: SubscriptionVersion;
  active: number;
  /** Whether this check sent the operational webhook (false: none in use, or already sent today). */
  notified: boolean;
}

/** The `webhook-id` of the version's notice on the UTC day of `at`: one a day. */
export function deprecatedInUseId(version: SubscriptionVersion, at: Date): string {
  return `op_version.deprecated_in_use_v${version}_${at.toISOString().slice(0, 10)}`;
}

/**
 * Counts the active subscriptions of each deprecated version and, for those still in use, sends
 * the `version.deprecated_in_use` operational webhook unless it went out already today. The
 * notice is stored before the POST and marked after it, so a failed POST is sent again at the
 * next check of the day and never twice once acknowledged (two workers checking at the same
 * moment may both POST it, under the same webhook id).
 */
export async function checkDeprecatedVersions(deps: DeprecationWatchDeps): Promise<DeprecatedVersionUse[]> {
  const { subscriptions, notices } = deps;
  const now = deps.now?.() ?? new Date();
  const found: DeprecatedVersionUse[] = [];
  for (const d of deps.deprecations.values()) {
    const active = await subscriptions.countActiveOnVersion(d.version);
    if (active === 0) {
      found.push({ version: d.version, active, notified: false });
      continue;
    }
    const id = deprecatedInUseId(d.version, now);
    const notice = await notices.claim(id, now);
    if (notice.notified_at) {
      found.push({ version: d.version, active, notified: false });
      continue;
    }
    const body: DeprecatedVersionNotification = {
      type: 'version.deprecated_in_use',
      timestamp: now.toISOString(),
      data: { version: d.version, deprecated_at: d.deprecatedAt.toISOString(), sunset: d.sunset.toISOString(), active_subscriptions: active },
    };
    deps.logger.warn({ version: d.version, active, sunset: d.sunset.toISOString() }, 'a deprecated envelope version still has active subscriptions');
    await deps.notifyOperator(id, JSON.stringify(body));
    await notices.markNotified(id, now);
    found.push({ version: d.version, active, notified: true });
  }
  return found;
}

/** How often the worker counts subscriptions on deprecated versions (and retries an unacknowledged notice). */
export const deprecationCheckIntervalMs = 60 * 60 * 1000;

/** Checks at once, then every `intervalMs`; nothing to do (and no timer) while no version is deprecated. */
export function startDeprecationWatch(deps: DeprecationWatchDeps, intervalMs = deprecationCheckIntervalMs): Repeating {
  const pass = async () => {
    try {
      await checkDeprecatedVersions(deps);
    } catch (err) {
      deps.logger.warn({ err }, 'checking deprecated versions failed; retrying next interval');
    }
  };
  if (deps.deprecations.size === 0) return { stop: () => Promise.resolve() };
  const first = pass();
  const repeating = repeatEvery(intervalMs, pass);
  return {
    async stop() {
      await first;
      await repeating.stop();
    },
  };
}
