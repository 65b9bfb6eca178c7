/**
 * Subscription filters: a JSON document in the operator subset Convoy and Outpost use, matched
 * against an event's canonical form `{type, id, data}`. Pure: no I/O, no `eval`, no regular
 * expressions built from input. `validateFilter` runs at write time and bounds the document;
 * `matchesFilter` then visits each filter node once, and each node reads one path of the event
 * (touching every element of an array there at most once), so the cost is linear in the event.
 *
 * Grammar:
 *  - filter    := { key: condition, ... }  (every key must hold: an implicit `$and`)
 *  - key       := a field name or a dotted path (`data.total`), or `$and` / `$or` (arrays of
 *                 filters) or `$not` (one filter)
 *  - condition := a literal (equality), an operator object (`{"$gte": 100, "$lt": 500}`), or a
 *                 nested filter on the field (`{"total": {"$gte": 100}}`)
 * An operator object has only `$` keys; a nested filter has none. Mixing them is refused.
 * Where the field holds an array, a literal or operator holds when any element satisfies it
 * (as in MongoDB), except an array literal, which compares the whole array.
 */

import type { FieldIssue, FieldPath } from '../errors/field-issue';

export const FILTER_LIMITS = {
  /** Most bytes of the filter as JSON. */
  maxBytes: 4096,
  /** Deepest nesting of objects and arrays in the filter. */
  maxDepth: 8,
  /** Most values in one `$in`/`$nin` list or `$and`/`$or` list. */
  maxListLength: 100,
} as const;

export const FIELD_OPERATORS = ['$eq', '$neq', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$startsWith', '$not'] as const;
export const LOGICAL_OPERATORS = ['$and', '$or', '$not'] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Filter = { [key: string]: Json };

/** Why a filter is refused: `field` names the offending place, e.g. `['filter', 'data', 'total', '$gtee']`. */
export type FilterError = FieldIssue;

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const join = (path: FieldPath, key: string | number): FieldPath => [...path, key];

function depthOf(v: unknown, limit: number): number {
  // Iterative, so a hostile nesting cannot overflow the stack before it is refused.
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [node, d] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Object.values(node)) stack.push([child, depth]);
  }
  return max;
}

/** The first problem with `filter`, or undefined when it is a valid filter. */
export function validateFilter(filter: unknown, base: FieldPath = ['filter']): FilterError | undefined {
  if (!isObject(filter)) return { field: base, message: 'must be a JSON object' };
  if (depthOf(filter, FILTER_LIMITS.maxDepth) > FILTER_LIMITS.maxDepth) return { field: base, message: `must nest at most ${FILTER_LIMITS.maxDepth} levels deep` };
  if (Buffer.byteLength(JSON.stringify(filter)) > FILTER_LIMITS.maxBytes) return { field: base, message: `must be at most ${FILTER_LIMITS.maxBytes} bytes as JSON` };
  return checkFilter(filter, base);
}

function checkFilter(filter: Record<string, Json>, path: FieldPath): FilterError | undefined {
  for (const [key, value] of Object.entries(filter)) {
    const at = join(path, key);
    if (key.startsWith('$')) {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) return { field: at, message: 'must be a non-empty array of filters' };
        if (value.length > FILTER_LIMITS.maxListLength) return { field: at, message: `must hold at most ${FILTER_LIMITS.maxListLength} filters` };
        for (const [i, sub] of value.entries()) {
          if (!isObject(sub)) return { field: join(at, i), message: 'must be a filter object' };
          const err = checkFilter(sub, join(at, i));
          if (err) return err;
        }
      } else if (key === '$not') {
        if (!isObject(value)) return { field: at, message: 'must be a filter object' };
        const err = checkFilter(value, at);
        if (err) return err;
      } else {
        return { field: at, message: `unknown operator ${key} (here: ${LOGICAL_OPERATORS.join(', ')}, or a field name)` };
      }
      continue;
    }
    if (key === '') return { field: at, message: 'a field name must not be empty' };
    const err = checkCondition(value, at);
    if (err) return err;
  }
  return undefined;
}

/**
 * Whether a field's condition is an operator object (`{"$gte": 1}`, `{"$not": {"$gt": 1}}`)
 * rather than a nested filter on the field (`{"total": 1}`, `{"$or": [...]}`).
 */
function isOperatorObject(cond: Record<string, Json>): boolean {
  const keys = Object.keys(cond);
  if (keys.length === 0 || keys.includes('$and') || keys.includes('$or')) return false;
  if (keys.some((k) => k.startsWith('$') && k !== '$not')) return true;
  if (!keys.includes('$not')) return false;
  const inner = cond.$not;
  return isObject(inner) && isOperatorObject(inner);
}

function checkCondition(cond: Json, path: FieldPath): FilterError | undefined {
  if (!isObject(cond)) return undefined; // a literal: equality
  if (!isOperatorObject(cond)) return checkFilter(cond, path); // a nested filter on the field
  const keys = Object.keys(cond);
  const ops = keys.filter((k) => k.startsWith('$'));
  if (ops.length !== keys.length) {
    const field = keys.find((k) => !k.startsWith('$'))!;
    return { field: join(path, field), message: 'operators and field names cannot be mixed in one object' };
  }
  for (const op of ops) {
    const at = join(path, op);
    const v = cond[op];
    switch (op) {
      case '$eq':
      case '$neq':
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (typeof v !== 'number' && typeof v !== 'string') return { field: at, message: 'must be a number or a string' };
        break;
      case '$in':
      case '$nin':
        if (!Array.isArray(v)) return { field: at, message: 'must be an array' };
        if (v.length > FILTER_LIMITS.maxListLength) return { field: at, message: `must hold at most ${FILTER_LIMITS.maxListLength} values` };
        if (!v.every(isScalar)) return { field: at, message: 'must hold only strings, numbers, booleans or null' };
        break;
      case '$exists':
        if (typeof v !== 'boolean') return { field: at, message: 'must be true or false' };
        break;
      case '$startsWith':
        if (typeof v !== 'string') return { field: at, message: 'must be a string' };
        break;
      case '$not': {
        if (!isObject(v) || !isOperatorObject(v)) {
          return { field: at, message: 'must be an object of operators' };
        }
        const err = checkCondition(v, path);
        if (err) return err;
        break;
      }
      default:
        return { field: at, message: `unknown operator ${op} (one of ${FIELD_OPERATORS.join(', ')})` };
    }
  }
  return undefined;
}

/** The value at a dotted `path` below `value`, or undefined. Arrays are not traversed by name. */
function lookup(value: unknown, path: string): unknown {
  let at = value;
  for (const part of path.split('.')) {
    if (!isObject(at)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(at, part)) return undefined;
    at = at[part];
  }
  return at;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Comparison only between two numbers or two strings: a type mismatch never holds. */
function compare(a: unknown, b: Json, holds: (c: number) => boolean): boolean {
  if (typeof a === 'number' && typeof b === 'number') return holds(a - b);
  if (typeof a === 'string' && typeof b === 'string') return holds(a < b ? -1 : a > b ? 1 : 0);
  return false;
}

/** A scalar test on the value, or on any element where the value is an array. */
function anyOf(value: unknown, test: (v: unknown) => boolean): boolean {
  return Array.isArray(value) ? value.some(test) : test(value);
}

function equals(value: unknown, literal: Json): boolean {
  if (Array.isArray(literal) || !Array.isArray(value)) return deepEqual(value, literal);
  return value.some((v) => deepEqual(v, literal));
}

function matchOperators(value: unknown, present: boolean, ops: Record<string, Json>): boolean {
  for (const [op, arg] of Object.entries(ops)) {
    let ok: boolean;
    switch (op) {
      case '$eq':
        ok = present && equals(value, arg);
        break;
      case '$neq':
        ok = !present || !equals(value, arg);
        break;
      case '$gt':
        ok = anyOf(value, (v) => compare(v, arg, (c) => c > 0));
        break;
      case '$gte':
        ok = anyOf(value, (v) => compare(v, arg, (c) => c >= 0));
        break;
      case '$lt':
        ok = anyOf(value, (v) => compare(v, arg, (c) => c < 0));
        break;
      case '$lte':
        ok = anyOf(value, (v) => compare(v, arg, (c) => c <= 0));
        break;
      case '$in': {
        const list = arg as Json[];
        ok = present && anyOf(value, (v) => list.some((x) => x === v));
        break;
      }
      case '$nin': {
        const list = arg as Json[];
        ok = !present || !anyOf(value, (v) => list.some((x) => x === v));
        break;
      }
      case '$exists':
        ok = present === arg;
        break;
      case '$startsWith':
        ok = anyOf(value, (v) => typeof v === 'string' && v.startsWith(arg as string));
        break;
      case '$not':
        ok = !matchOperators(value, present, arg as Record<string, Json>);
        break;
      default:
        ok = false; // unreachable for a validated filter; an unknown operator never matches
    }
    if (!ok) return false;
  }
  return true;
}

function matchCondition(value: unknown, present: boolean, cond: Json): boolean {
  if (!isObject(cond)) return present && equals(value, cond);
  if (isOperatorObject(cond)) return matchOperators(value, present, cond);
  return matchFilter(cond, value);
}

function matchFilter(filter: Record<string, Json>, value: unknown): boolean {
  for (const [key, cond] of Object.entries(filter)) {
    let ok: boolean;
    if (key === '$and') ok = (cond as Record<string, Json>[]).every((f) => matchFilter(f, value));
    else if (key === '$or') ok = (cond as Record<string, Json>[]).some((f) => matchFilter(f, value));
    else if (key === '$not') ok = !matchFilter(cond as Record<string, Json>, value);
    else {
      const v = lookup(value, key);
      ok = matchCondition(v, v !== undefined, cond);
    }
    if (!ok) return false;
  }
  return true;
}

/** The canonical form a filter sees: the same for every payload version. */
export interface FilterSubject {
  type: string;
  id: string;
  data: unknown;
}

/** Whether `event` satisfies `filter` (a validated one; an empty filter matches everything). */
export function matchesFilter(filter: Filter, event: FilterSubject): boolean {
  return matchFilter(filter, event);
}
