import type { OpenApiDocument } from '../../src/contract/openapi';

type Json = Record<string, unknown>;

/**
 * `contract` with envelope version `next` added the way docs/versioning.md walks through: a
 * subscribe path copied from version `next - 1` (with its delivery callback), its envelope schemas
 * (`<Name>EventV<next>`, with `api_version: next`) and their union `WebhookEventV<next>`, its
 * `webhooks` entries (`<type>.v<next>`), and `next` in the subscriptions' `version` enum. The contract changes only; no code. Returns a new document.
 */
export function addVersion(contract: OpenApiDocument, next: number): OpenApiDocument {
  const prev = next - 1;
  const doc = structuredClone(contract) as Json & { paths: Json; webhooks: Json; components: { schemas: Json } };
  const schemas = doc.components.schemas;
  for (const name of ['Subscription', 'SubscriptionWithSecret']) {
    const version = (schemas[name] as { properties: { version: { enum: number[] } } }).properties.version;
    version.enum = [...version.enum, next];
  }
  const path = doc.paths[`/api/webhooks/v${prev}/subscribe`] as { post: Json };
  // Its delivery callback names the version's union and its own operationId.
  const post = JSON.parse(JSON.stringify(path.post).replaceAll(`WebhookEventV${prev}"`, `WebhookEventV${next}"`).replaceAll(`deliverEventV${prev}"`, `deliverEventV${next}"`)) as Json;
  doc.paths[`/api/webhooks/v${next}/subscribe`] = { post: { ...post, operationId: `createSubscriptionV${next}`, summary: `Create a v${next} subscription` } };
  const union = JSON.stringify(schemas[`WebhookEventV${prev}`]).replaceAll(`EventV${prev}"`, `EventV${next}"`);
  schemas[`WebhookEventV${next}`] = JSON.parse(union.replaceAll(`v${prev} subscription`, `v${next} subscription`)) as unknown;
  for (const [name, schema] of Object.entries(schemas)) {
    const m = new RegExp(`^(\\w+)EventV${prev}$`).exec(name);
    if (!m || name === `WebhookEventV${prev}`) continue;
    const copy = structuredClone(schema) as { description: string; properties: { api_version: { const: number } } };
    copy.properties.api_version.const = next;
    copy.description = copy.description.replace(`v${prev}`, `v${next}`);
    schemas[`${m[1]}EventV${next}`] = copy;
  }
  for (const [name, entry] of Object.entries(doc.webhooks)) {
    if (!name.endsWith(`.v${prev}`)) continue;
    const text = JSON.stringify(entry).replaceAll(`EventV${prev}"`, `EventV${next}"`).replaceAll(`V${prev}"`, `V${next}"`).replaceAll(`(v${prev} envelope)`, `(v${next} envelope)`);
    doc.webhooks[name.replace(new RegExp(`\\.v${prev}$`), `.v${next}`)] = JSON.parse(text) as unknown;
  }
  return doc;
}
