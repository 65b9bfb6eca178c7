import { Router } from 'express';
import { createPortalSession, currentPortalSession, expirePortalSessions, type PortalDeps } from '../../portal/use-cases';
import { requestOrigin } from '../origin';
import { principalOf } from '../security';
import { validated } from '../validated';

const base = '/api/webhooks/v1/portal-sessions';

/** Opening portal sessions (API keys) and describing the current one (portal tokens). */
export function portalSessionRoutes(deps: PortalDeps): Router {
  const r = Router();
  r.post(base, async (req, res) => {
    const { body } = validated(req, 'createPortalSession');
    res.status(201).json(await createPortalSession(deps, principalOf(req), body, requestOrigin(req)));
  });
  r.post(`${base}/expire-all`, async (req, res) => {
    res.json(await expirePortalSessions(deps, principalOf(req), validated(req, 'expirePortalSessions').body));
  });
  r.get(`${base}/current`, (req, res) => {
    res.json(currentPortalSession(deps, principalOf(req)));
  });
  return r;
}
