import { timingSafeEqual } from 'node:crypto';

/**
 * Checks a scrape's `Authorization` header against METRICS_TOKEN in constant time; without a
 * token every scrape is allowed.
 */
export function scrapeAllowed(token: string | undefined): (authorization: string | undefined) => boolean {
  if (!token) return () => true;
  const expected = Buffer.from(`Bearer ${token}`);
  return (authorization) => {
    const given = Buffer.from(authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}
