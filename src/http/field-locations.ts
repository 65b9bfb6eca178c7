import type { Response } from 'express';
import type { FieldError } from '../contract/types';
import { type OpenApiDocument, resolveRef } from '../contract/openapi';
import type { FieldIssue } from '../errors/field-issue';

/** Where an operation's named inputs travel: each path and query parameter's name; the rest is body. */
export type ParameterLocations = ReadonlyMap<string, 'path' | 'query'>;

interface ParameterObject {
  name?: string;
  in?: string;
  $ref?: string;
}

function locationsOf(contract: OpenApiDocument, parameters: readonly ParameterObject[]): Map<string, 'path' | 'query'> {
  const found = new Map<string, 'path' | 'query'>();
  for (const raw of parameters) {
    const p = (raw.$ref ? resolveRef(contract, raw.$ref) : raw) as ParameterObject;
    if (p.name && (p.in === 'path' || p.in === 'query')) found.set(p.name, p.in);
  }
  return found;
}

/** Each operationId's path and query parameters, read from the contract (path-item and operation levels). */
export function parameterLocations(contract: OpenApiDocument): Map<string, ParameterLocations> {
  const byOperation = new Map<string, ParameterLocations>();
  const paths = (contract.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const item of Object.values(paths)) {
    const shared = (item.parameters ?? []) as ParameterObject[];
    for (const op of Object.values(item)) {
      const operation = op as { operationId?: string; parameters?: ParameterObject[] } | null;
      if (!operation?.operationId) continue;
      byOperation.set(operation.operationId, locationsOf(contract, [...shared, ...(operation.parameters ?? [])]));
    }
  }
  return byOperation;
}

function escape(part: string | number): string {
  return String(part).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The request location of a refused input field, as a JSON pointer (`/query/cursor`,
 * `/path/subscription_id`, `/body/items/0/quantity`): a field whose first name is one of the
 * operation's parameters travelled there; anything else was in the body.
 */
export function toFieldError(issue: FieldIssue, parameters: ParameterLocations | undefined): FieldError {
  const head = issue.field[0];
  const location = typeof head === 'string' ? parameters?.get(head) : undefined;
  return { path: ['', location ?? 'body', ...issue.field.map(escape)].join('/'), message: issue.message };
}

/** Remembers, for the error handler, where the operation being served takes its parameters. */
export function rememberParameters(res: Response, parameters: ParameterLocations | undefined): void {
  res.locals.parameterLocations = parameters;
}

/** What `rememberParameters` left on `res`: undefined before routing (then every field is body). */
export function rememberedParameters(res: Response): ParameterLocations | undefined {
  return res.locals.parameterLocations as ParameterLocations | undefined;
}
