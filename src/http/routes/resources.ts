import {
  type ResourceDeps,
  createOrder,
  getOrder,
  getUser,
  listProducts,
  listUserOrders,
  updateOrder,
} from '../../orders/use-cases';
import { adjustStock, getStock, listStock } from '../../inventory/use-cases';
import type { OperationHandlers } from '../operations';
import { requestIdOf } from '../request-id';
import { principalOf } from '../security';

/** Thin handlers over the resource use cases; the contract has checked scopes, paths, queries and bodies. */
export function resourceHandlers(deps: ResourceDeps): OperationHandlers {
  return {
    getUser: async ({ path }, _req, res) => {
      res.json(await getUser(deps, path.user_id));
    },
    listUserOrders: async ({ path, query }, req, res) => {
      res.json(await listUserOrders(deps, principalOf(req), path.user_id, query));
    },
    listProducts: async ({ query }, _req, res) => {
      res.json(await listProducts(deps, query));
    },
    // The app rewrites the bare /api/orders to the spec's /api/orders/ before routing.
    createOrder: async ({ body }, req, res) => {
      const order = await createOrder(deps, principalOf(req), body, requestIdOf(req));
      res.status(201).location(`/api/orders/${order.id}`).json(order);
    },
    getOrder: async ({ path }, req, res) => {
      res.json(await getOrder(deps, principalOf(req), path.order_id));
    },
    updateOrder: async ({ path, body }, req, res) => {
      res.json(await updateOrder(deps, principalOf(req), path.order_id, body, requestIdOf(req)));
    },
    listStock: async (_input, _req, res) => {
      res.json(await listStock(deps.inventory));
    },
    getStock: async ({ path }, _req, res) => {
      res.json(await getStock(deps.inventory, path.product_id));
    },
    adjustStock: async ({ path, body }, req, res) => {
      res.json(await adjustStock(deps.inventory, path.product_id, body, requestIdOf(req)));
    },
  };
}
