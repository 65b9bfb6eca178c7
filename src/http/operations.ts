import { type NextFunction, type Request, type Response, Router } from 'express';
import type { OpenApiDocument } from '../contract/openapi';
import type { BodyOf, OperationId, PathOf, QueryOf } from '../contract/types';
import { parameterLocations, rememberParameters } from './field-locations';

/** A request's path, query and body for operation `K`, as the validator left them: checked and converted to their contract types. */
export interface OperationInput<K extends OperationId> {
  path: PathOf<K>;
  query: QueryOf<K>;
  body: BodyOf<K>;
}

/** Serves one contract operation; `input` is typed by the generated contract. */
export type OperationHandler<K extends OperationId> = (input: OperationInput<K>, req: Request, res: Response, next: NextFunction) => unknown;

/** Handlers keyed by the contract's operationIds: the only way a route is registered. */
export type OperationHandlers = { [K in OperationId]?: OperationHandler<K> };

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Method = (typeof methods)[number];

/** Where the contract puts an operation, as an Express route. */
export interface OperationRoute {
  method: Method;
  /** The contract's path with `{name}` written `:name`. */
  path: string;
}

/** Every operation of the contract with its method and Express path. */
export function contractRoutes(contract: OpenApiDocument): Map<string, OperationRoute> {
  const routes = new Map<string, OperationRoute>();
  const paths = (contract.paths ?? {}) as Record<string, Record<string, { operationId?: string } | undefined>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of methods) {
      const operationId = item[method]?.operationId;
      if (operationId) routes.set(operationId, { method, path: path.replace(/\{([^}]+)\}/g, ':$1') });
    }
  }
  return routes;
}

// The validator puts the converted path parameters here; query and body it converts in place.
interface ValidatedRequest extends Request {
  openapi?: { pathParams?: Record<string, unknown> };
}

function inputOf<K extends OperationId>(req: ValidatedRequest): OperationInput<K> {
  // The shapes are the ones the validator enforced; only the static types are asserted here.
  const input: unknown = { path: req.openapi?.pathParams ?? req.params, query: req.query, body: req.body as unknown };
  return input as OperationInput<K>;
}

/**
 * A router with one route per handler, at the method and path the contract gives its
 * operationId; an operationId the contract lacks throws, so nothing outside the contract is routed.
 */
export function routeOperations(contract: OpenApiDocument, handlers: OperationHandlers): Router {
  const routes = contractRoutes(contract);
  const parameters = parameterLocations(contract);
  const router = Router();
  for (const [operationId, handler] of Object.entries(handlers) as [OperationId, OperationHandler<OperationId>][]) {
    const route = routes.get(operationId);
    if (!route) throw new Error(`the contract has no operation ${operationId} to route`);
    const located = parameters.get(operationId);
    router[route.method](route.path, (req, res, next) => {
      rememberParameters(res, located);
      return handler(inputOf(req), req, res, next);
    });
  }
  return router;
}

/** Joins the handler sets of several modules; an operation served twice is a wiring mistake. */
export function mergeHandlers(...sets: OperationHandlers[]): OperationHandlers {
  const merged: Record<string, unknown> = {};
  for (const set of sets) {
    for (const [operationId, handler] of Object.entries(set)) {
      if (operationId in merged) throw new Error(`operation ${operationId} has two handlers`);
      merged[operationId] = handler;
    }
  }
  return merged;
}

/** Throws naming every operation of the contract that none of the handler sets serves. */
export function assertEveryOperationServed(contract: OpenApiDocument, ...sets: OperationHandlers[]): void {
  const served = new Set(sets.flatMap((set) => Object.keys(set)));
  const missing = [...contractRoutes(contract).keys()].filter((id) => !served.has(id));
  if (missing.length > 0) throw new Error(`the contract's operations ${missing.join(', ')} have no handler`);
}
