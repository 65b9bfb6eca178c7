/**
 * Groups of a subscription's events by when they were emitted, at widths from 64 ms to about
 * 12 days (each 8 times the last): every attempt carries its event's group at each width, so the
 * attempts of a page of events are read with one or two equality lookups whatever the page spans.
 */

/** Group widths in milliseconds, finest first. */
export const GROUP_WIDTHS_MS: readonly number[] = Array.from({ length: 9 }, (_, k) => 64 * 8 ** k);

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// A time-sortable id (src/db/ids.ts): prefix, `_`, 8 base62 characters of milliseconds, 14 random.
const timedId = /^[a-z]+_([0-9A-Za-z]{8})[0-9A-Za-z]{14}$/;

/** The emission time an event id carries, or undefined for an id not made by newId. */
export function eventIdTime(eventId: string): number | undefined {
  const digits = timedId.exec(eventId)?.[1];
  if (!digits) return undefined;
  let ms = 0;
  for (const c of digits) ms = ms * 62 + alphabet.indexOf(c);
  return ms;
}

const groupTag = (subscriptionId: string, level: number, bucket: number) => `${subscriptionId}~${level}:${bucket}`;
// An id without a time is a group of its own: read with one lookup, never with others.
const loneTag = (subscriptionId: string, eventId: string) => `${subscriptionId}~x:${eventId}`;

/** The groups an attempt of `eventId` to `subscriptionId` is in: one per width. */
export function eventGroups(subscriptionId: string, eventId: string): string[] {
  const at = eventIdTime(eventId);
  if (at === undefined) return [loneTag(subscriptionId, eventId)];
  return GROUP_WIDTHS_MS.map((width, level) => groupTag(subscriptionId, level, Math.floor(at / width)));
}

/**
 * The groups to read for the attempts of `eventIds` (a page of the subscription's events): those
 * of the narrowest width at least the page's span, so at most two for the ids with a time (more
 * only for a page wider than the widest group), plus one per id without a time.
 */
export function groupsToRead(subscriptionId: string, eventIds: readonly string[]): string[] {
  const tags = new Set<string>();
  const times: number[] = [];
  for (const id of eventIds) {
    const at = eventIdTime(id);
    if (at === undefined) tags.add(loneTag(subscriptionId, id));
    else times.push(at);
  }
  if (times.length === 0) return [...tags];
  const span = Math.max(...times) - Math.min(...times);
  const found = GROUP_WIDTHS_MS.findIndex((w) => w >= span);
  const level = found === -1 ? GROUP_WIDTHS_MS.length - 1 : found;
  for (const at of times) tags.add(groupTag(subscriptionId, level, Math.floor(at / GROUP_WIDTHS_MS[level]!)));
  return [...tags];
}

/** The groups, at the width nearest above `spanMs`, of the subscription's events emitted from `fromMs` to `toMs`: two or three, read by equality. */
export function groupsBetween(subscriptionId: string, fromMs: number, toMs: number, spanMs = toMs - fromMs): string[] {
  const found = GROUP_WIDTHS_MS.findIndex((w) => w >= spanMs / 2);
  const level = found === -1 ? GROUP_WIDTHS_MS.length - 1 : found;
  const width = GROUP_WIDTHS_MS[level]!;
  const tags: string[] = [];
  for (let b = Math.floor(fromMs / width); b <= Math.floor(toMs / width); b++) tags.push(groupTag(subscriptionId, level, b));
  return tags;
}
