import { loadContract, type OpenApiDocument } from '../../src/contract/openapi';
import type { SubscriptionVersion } from '../../src/contract/types';
import { subscribeRoutes } from '../../src/webhooks/versions';

/** A copy of the contract with `version` deprecated on every one of its subscribe operations, as docs/versioning.md says to. */
export function deprecatedContract(version: SubscriptionVersion, deprecatedAt: string, sunset: string, contract: OpenApiDocument = loadContract()): OpenApiDocument {
  const copy = structuredClone(contract) as OpenApiDocument & { paths: Record<string, { post: Record<string, unknown> }> };
  for (const route of subscribeRoutes.filter((r) => r.version === version)) {
    Object.assign(copy.paths[route.path]!.post, { deprecated: true, 'x-deprecated-at': deprecatedAt, 'x-sunset': sunset });
  }
  return copy;
}
