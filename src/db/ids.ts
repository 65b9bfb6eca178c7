import { randomBytes } from 'node:crypto';

// 0-9A-Za-z is in ASCII order, so ids sort lexicographically by their time prefix.
const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(value: bigint, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = alphabet[Number(v % 62n)]! + out;
    v /= 62n;
  }
  return out;
}

/**
 * A prefixed, time-sortable identifier: `<prefix>_` + 8 characters of milliseconds
 * + 14 random characters (about 83 bits), e.g. `sub_0Ld4Tz1k7fGq2LmN9xYbWe3R`.
 * Sorting by id sorts by creation time, which cursor pagination relies on.
 */
export function newId(prefix: string, now = Date.now()): string {
  const random = BigInt(`0x${randomBytes(11).toString('hex')}`);
  return `${prefix}_${base62(BigInt(now), 8)}${base62(random, 14)}`;
}
