import { timingSafeEqual } from 'node:crypto';

/** Constant-time string comparison (lengths are not secret). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
