import { createPortalSession, currentPortalSession, expirePortalSessions, type PortalDeps } from '../../portal/use-cases';
import type { OperationHandlers } from '../operations';
import { requestOrigin } from '../origin';
import { principalOf } from '../security';

/** Opening portal sessions (API keys) and describing the current one (portal tokens). */
export function portalSessionHandlers(deps: PortalDeps): OperationHandlers {
  return {
    createPortalSession: async ({ body }, req, res) => {
      res.status(201).json(await createPortalSession(deps, principalOf(req), body, requestOrigin(req)));
    },
    expirePortalSessions: async ({ body }, req, res) => {
      res.json(await expirePortalSessions(deps, principalOf(req), body));
    },
    getCurrentPortalSession: (_input, req, res) => {
      res.json(currentPortalSession(deps, principalOf(req)));
    },
  };
}
