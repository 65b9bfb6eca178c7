import { type Request, Router } from 'express';
import type { OrderCreate, OrderUpdate } from '../schemas';
import {
  type ResourceDeps,
  createOrder,
  getOrder,
  getUser,
  listProducts,
  listStock,
  listUserOrders,
  updateOrder,
} from '../../resources/use-cases';
import { intQuery, strQuery } from './subscriptions';

/** A numeric path parameter the validator already checked (integer ≥ 1). */
function intParam(req: Request, name: string): number {
  return Number((req.params as Record<string, string>)[name]);
}

const orders = '/api/orders';

/** Thin routes over the resource use cases; the contract has checked scopes, paths, queries and bodies. */
export function resourceRoutes(deps: ResourceDeps): Router {
  const r = Router();
  r.get('/api/users/:user_id', async (req, res) => {
    res.json(await getUser(deps, intParam(req, 'user_id')));
  });
  r.get('/api/users/:user_id/orders', async (req, res) => {
    const limit = intQuery(req, 'limit');
    const fields = strQuery(req, 'fields');
    res.json(
      await listUserOrders(deps, intParam(req, 'user_id'), { ...(limit ? { limit } : {}), ...(fields !== undefined ? { fields } : {}) }),
    );
  });
  r.get('/api/catalog/products', async (req, res) => {
    const limit = intQuery(req, 'limit');
    const filter = strQuery(req, 'filter');
    res.json(await listProducts(deps, { ...(limit ? { limit } : {}), ...(filter !== undefined ? { filter } : {}) }));
  });
  // The app rewrites the bare /api/orders to the spec's /api/orders/ before routing.
  r.post(`${orders}/`, async (req, res) => {
    const order = await createOrder(deps, req.body as OrderCreate);
    res.status(201).location(`${orders}/${order.id}`).json(order);
  });
  r.get(`${orders}/:order_id`, async (req, res) => {
    res.json(await getOrder(deps, intParam(req, 'order_id')));
  });
  r.patch(`${orders}/:order_id`, async (req, res) => {
    res.json(await updateOrder(deps, intParam(req, 'order_id'), req.body as OrderUpdate));
  });
  r.get('/api/inventory/stock', async (_req, res) => {
    res.json(await listStock(deps));
  });
  return r;
}
