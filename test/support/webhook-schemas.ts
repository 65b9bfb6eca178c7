/**
 * Checks outgoing webhook bodies and headers against the contract's `webhooks` section, with Ajv
 * in the contract's dialect (OpenAPI 3.1 = JSON Schema 2020-12), every `$ref` inlined.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { inlineRefs, loadContract } from '../../src/contract/openapi';
import type { EventType, SubscriptionVersion } from '../../src/contract/types';

interface WebhookOperation {
  parameters?: unknown[];
  requestBody: { content: { 'application/json': { schema: unknown; example?: unknown } } };
}

type Contract = ReturnType<typeof loadContract>;

function webhooksOf(contract: Contract): Record<string, { post: WebhookOperation }> {
  const webhooks = contract.webhooks as Record<string, { post: WebhookOperation }> | undefined;
  if (!webhooks) throw new Error('the contract has no webhooks section');
  return webhooks;
}

/** Names of the contract's `webhooks` entries. */
export function webhookNames(): string[] {
  return Object.keys(webhooksOf(loadContract()));
}

/** The `webhooks` entry describing what a subscription of `version` gets for `type` (`order.created`, `order.created.v2`, ...). */
export function webhookName(version: SubscriptionVersion, type: EventType): string {
  return version === 1 ? type : `${type}.v${version}`;
}

/** The `webhooks` entry the admin alert POST is described by. */
export const alertWebhook = 'admin.alert';
/** The `webhooks` entry of the operational webhook sent when a subscription is disabled. */
export const disabledWebhook = 'subscription.disabled';
/** The `webhooks` entry of the operational webhook sent while a deprecated version has active subscriptions. */
export const deprecatedInUseWebhook = 'version.deprecated_in_use';

function operation(name: string): WebhookOperation {
  const op = webhooksOf(loadContract())[name]?.post;
  if (!op) throw new Error(`the contract has no webhook ${name}`);
  return op;
}

/** The request-body schema of webhook `name`, standing alone (every `$ref` inlined). */
export function webhookBodySchema(name: string): Record<string, unknown> {
  const contract = loadContract();
  return inlineRefs(operation(name).requestBody.content['application/json'].schema, contract) as Record<string, unknown>;
}

/** The example body the contract shows for webhook `name`, if any. */
export function webhookExample(name: string): unknown {
  return operation(name).requestBody.content['application/json'].example;
}

const annotationKeys = new Set(['description', 'examples', 'example', 'default', 'const', 'enum', 'title']);

/**
 * `schema` with every object schema closed (`unevaluatedProperties: false`) where the contract
 * leaves it open. The contract tells receivers to ignore unknown fields, so it may leave payloads
 * open for later additions; what the service sends today must still name no field the contract
 * does not describe. Members of an `allOf` stay open: the schema holding the `allOf` closes them
 * together (`unevaluatedProperties` sees the properties of every member).
 */
export function closedSchema(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closedSchema(s));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (annotationKeys.has(key)) out[key] = value;
    else if (key === 'allOf') out[key] = (value as unknown[]).map((s) => closedSchema(s, true));
    else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, closedSchema(v)]));
    else out[key] = closedSchema(value);
  }
  const isObjectSchema = out.type === 'object' || 'properties' in out || 'allOf' in out;
  if (isObjectSchema && !inAllOf && out.additionalProperties === undefined && out.unevaluatedProperties === undefined) {
    out.unevaluatedProperties = false;
  }
  return out;
}

function newAjv(): Ajv2020 {
  // Strict: a keyword Ajv does not know (a typo in the contract) is an error, not ignored.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const ajv = newAjv();
const compiled = new Map<string, ValidateFunction>();

/**
 * A validator for the body of webhook `name`: `open` exactly as the contract publishes it,
 * `closed` also refusing any field the contract does not name (see {@link closedSchema}).
 */
export function webhookBodyValidator(name: string, mode: 'open' | 'closed' = 'closed'): ValidateFunction {
  const key = `${mode}:${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    const schema = webhookBodySchema(name);
    validate = ajv.compile(mode === 'closed' ? (closedSchema(schema) as Record<string, unknown>) : schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** Ajv's errors as readable lines, for assertion messages. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('\n');
}

/** Validates a body against webhook `name`; returns the error lines (empty when valid). */
export function bodyErrors(name: string, body: unknown, mode: 'open' | 'closed' = 'closed'): string[] {
  const validate = webhookBodyValidator(name, mode);
  return validate(body) ? [] : describeErrors(validate.errors).split('\n');
}

/**
 * Checks received headers against the header parameters webhook `name` declares: each required
 * one present, each present one matching its schema. Returns the problems (empty when none).
 */
export function headerErrors(name: string, headers: IncomingHttpHeaders): string[] {
  const contract = loadContract();
  const problems: string[] = [];
  for (const raw of operation(name).parameters ?? []) {
    const p = inlineRefs(raw, contract) as { name: string; in: string; required?: boolean; schema: Record<string, unknown> };
    if (p.in !== 'header') continue;
    const value = headers[p.name.toLowerCase()];
    if (value === undefined) {
      if (p.required) problems.push(`header ${p.name} is missing`);
      continue;
    }
    const key = `header:${name}:${p.name}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(p.schema)));
    if (!validate(Array.isArray(value) ? value.join(', ') : value)) problems.push(`header ${p.name}: ${describeErrors(validate.errors)}`);
  }
  return problems;
}
