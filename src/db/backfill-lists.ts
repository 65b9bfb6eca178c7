import type { Db } from 'mongodb';
import { AlertRepository } from '../alerts/repository';
import { AttemptRepository } from '../deliveries/attempts';
import { InboxRepository } from '../deliveries/inbox';
import { EventRepository } from '../events/repository';
import { OrderRepository } from '../orders/repository';

/**
 * Tags whatever the listed collections hold from before they had lists, so their lists and
 * retention see it, and attempts from before they had event groups; each once per database
 * (Timeline.backfill, AttemptRepository.tagEventGroups). Returns how many documents each had to tag.
 */
export async function backfillLists(db: Db): Promise<Record<string, number>> {
  const owners = {
    attempts: new AttemptRepository(db),
    events: new EventRepository(db),
    orders: new OrderRepository(db),
    alerts: new AlertRepository(db),
    inbox: new InboxRepository(db),
  };
  const tagged: Record<string, number> = {};
  for (const [name, repository] of Object.entries(owners)) tagged[name] = await repository.tagUnlisted();
  // Attempts' event groups, which a page of a subscription's events reads its attempts by.
  tagged['attempt event groups'] = await owners.attempts.tagEventGroups();
  return tagged;
}
