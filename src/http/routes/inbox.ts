import { type InboxDeps, listInbox, reportInboxOutcome } from '../../deliveries/inbox-use-cases';
import { yieldPlace } from '../load-shedding';
import { LongPolls } from '../long-polls';
import type { OperationHandlers } from '../operations';
import { HttpProblem } from '../problem';
import { principalOf } from '../security';

/** Beyond the longest wait: the server's idle-socket timeout must not cut a long poll short. */
const SOCKET_SLACK_MS = 5000;

/** A pull subscription's inbox: the long-poll read and the outcome report. */
export function inboxHandlers(deps: InboxDeps, polls = new LongPolls()): OperationHandlers {
  return {
    listInboxMessages: async ({ path, query }, req, res) => {
      // A long poll whose client went away stops reading.
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      let unpark: (() => void) | undefined;
      if (query.wait) {
        const idle = req.socket.timeout;
        req.socket.setTimeout(query.wait * 1000 + SOCKET_SLACK_MS);
        if (idle !== undefined) res.once('finish', () => req.socket.setTimeout(idle));
      }
      /** Sleeps without holding an API_MAX_IN_FLIGHT place (parked, within the long-poll limits); false when no place is free to read again. */
      const pause = async (ms: number) => {
        unpark ??= polls.park(path.subscription_id);
        if (!unpark) {
          const { perProcess, perSubscription } = polls.limits;
          throw new HttpProblem(429, 'Too Many Long Polls', `This API process already parks its limit of long polls (${perProcess}, ${perSubscription} per subscription); nothing waited. Read without wait, or retry later.`, [
            { path: '/query/wait', message: `at most ${perSubscription} waiting reads per subscription` },
          ]);
        }
        const retake = yieldPlace(res);
        await new Promise((resolve) => setTimeout(resolve, ms));
        return retake();
      };
      try {
        res.json(await listInbox(deps, principalOf(req), path.subscription_id, query, { signal: gone.signal, pause }));
      } finally {
        unpark?.();
      }
    },
    reportInboxOutcome: async ({ path, body }, req, res) => {
      await reportInboxOutcome(deps, principalOf(req), path.subscription_id, path.message_id, body);
      res.status(204).end();
    },
  };
}
