import { Router } from 'express';
import {
  type ResourceDeps,
  createOrder,
  getOrder,
  getUser,
  listProducts,
  listUserOrders,
  updateOrder,
} from '../../resources/use-cases';
import { adjustStock, getStock, listStock } from '../../inventory/use-cases';
import { requestIdOf } from '../request-id';
import { principalOf } from '../security';
import { validated } from '../validated';

const orders = '/api/orders';

/** Thin routes over the resource use cases; the contract has checked scopes, paths, queries and bodies. */
export function resourceRoutes(deps: ResourceDeps): Router {
  const r = Router();
  r.get('/api/users/:user_id', async (req, res) => {
    const { path } = validated(req, 'getUser');
    res.json(await getUser(deps, path.user_id));
  });
  r.get('/api/users/:user_id/orders', async (req, res) => {
    const { path, query } = validated(req, 'listUserOrders');
    res.json(await listUserOrders(deps, principalOf(req), path.user_id, query));
  });
  r.get('/api/catalog/products', async (req, res) => {
    res.json(await listProducts(deps, validated(req, 'listProducts').query));
  });
  // The app rewrites the bare /api/orders to the spec's /api/orders/ before routing.
  r.post(`${orders}/`, async (req, res) => {
    const order = await createOrder(deps, principalOf(req), validated(req, 'createOrder').body, requestIdOf(req));
    res.status(201).location(`${orders}/${order.id}`).json(order);
  });
  r.get(`${orders}/:order_id`, async (req, res) => {
    res.json(await getOrder(deps, principalOf(req), validated(req, 'getOrder').path.order_id));
  });
  r.patch(`${orders}/:order_id`, async (req, res) => {
    const { path, body } = validated(req, 'updateOrder');
    res.json(await updateOrder(deps, principalOf(req), path.order_id, body, requestIdOf(req)));
  });
  r.get('/api/inventory/stock', async (_req, res) => {
    res.json(await listStock(deps.inventory));
  });
  r.get('/api/inventory/stock/:product_id', async (req, res) => {
    res.json(await getStock(deps.inventory, validated(req, 'getStock').path.product_id));
  });
  r.patch('/api/inventory/stock/:product_id', async (req, res) => {
    const { path, body } = validated(req, 'adjustStock');
    res.json(await adjustStock(deps.inventory, path.product_id, body, requestIdOf(req)));
  });
  return r;
}
