import { type InboxDeps, listInbox, reportInboxOutcome } from '../../deliveries/inbox-use-cases';
import { yieldPlace } from '../load-shedding';
import type { OperationHandlers } from '../operations';
import { principalOf } from '../security';

/** A pull subscription's inbox: the long-poll read and the outcome report. */
export function inboxHandlers(deps: InboxDeps): OperationHandlers {
  return {
    listInboxMessages: async ({ path, query }, req, res) => {
      // A long poll whose client went away stops reading.
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      // A long poll mostly waits: it does not hold one of the API_MAX_IN_FLIGHT places meanwhile.
      if (query.wait) yieldPlace(res);
      res.json(await listInbox(deps, principalOf(req), path.subscription_id, query, gone.signal));
    },
    reportInboxOutcome: async ({ path, body }, req, res) => {
      await reportInboxOutcome(deps, principalOf(req), path.subscription_id, path.message_id, body);
      res.status(204).end();
    },
  };
}
