import { DomainError } from '../errors/domain-error';

/** Encodes the last id of a page as an opaque cursor. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ after: lastId })).toString('base64url');
}

/** Decodes a cursor from `encodeCursor`; a tampered one is a 400 naming the parameter. */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof parsed.after === 'string' && /^[a-z]+_[A-Za-z0-9]{16,32}$/.test(parsed.after)) return parsed.after;
  } catch {
    // fall through to the problem below
  }
  throw DomainError.invalid('Invalid Cursor', 'cursor is not one this API returned', [
    { field: ['cursor'], message: 'must be a next_cursor value from a previous page' },
  ]);
}

/** Splits a `limit + 1` fetch into a page and the cursor of the next one. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): { data: T[]; next_cursor?: string } {
  if (rows.length <= limit) return { data: rows };
  const data = rows.slice(0, limit);
  return { data, next_cursor: encodeCursor(data[data.length - 1]!.id) };
}
