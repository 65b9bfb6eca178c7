import { safeEqual } from '../lib/safe-equal';

/**
 * Checks a scrape's `Authorization` header against METRICS_TOKEN in constant time; without a
 * token every scrape is allowed.
 */
export function scrapeAllowed(token: string | undefined): (authorization: string | undefined) => boolean {
  if (!token) return () => true;
  const expected = `Bearer ${token}`;
  return (authorization) => safeEqual(authorization ?? '', expected);
}
