import { randomFillSync } from 'node:crypto';

// 0-9A-Za-z is in ASCII order, so ids sort lexicographically by their time prefix.
const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes drawn 4 KiB at a time: one call to the system's generator per few hundred ids, not one per id.
const pool = Buffer.alloc(4096);
let next = pool.length;

/** `count` characters of the alphabet, each uniform and independent (CSPRNG bytes, rejection-sampled). */
function randomChars(count: number): string {
  let out = '';
  while (out.length < count) {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    const byte = pool[next++]!;
    // 248 = 4 × 62: bytes above it are dropped, so every character is equally likely.
    if (byte < 248) out += alphabet[byte % 62]!;
  }
  return out;
}

/** `value` (a safe integer) in base 62, `width` characters, zero-padded. */
function base62(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = alphabet[v % 62]! + out;
    v = Math.floor(v / 62);
  }
  return out;
}

/**
 * A prefixed, time-sortable identifier: `<prefix>_` + 8 characters of milliseconds
 * + 14 random characters (about 83 bits), e.g. `sub_0Ld4Tz1k7fGq2LmN9xYbWe3R`.
 * Sorting by id sorts by creation time, which cursor pagination relies on.
 */
export function newId(prefix: string, now = Date.now()): string {
  return `${prefix}_${base62(now, 8)}${randomChars(14)}`;
}
