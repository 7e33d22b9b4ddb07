import { z } from 'zod';

/** Largest id a row can have: ids are 32-bit integer columns on both dialects. */
export const MAX_ID = 2_147_483_647;

/** `1`, `42`, `2147483648`: digits without a sign, leading zero, exponent, base prefix or blanks. */
const CANONICAL_ID = /^[1-9][0-9]{0,19}$/;

/**
 * The id a value names, or null when it is not an id. Text must be a canonical decimal integer
 * (`1e0`, `0x10`, `0b1`, `+1`, `0001`, `1 ` are refused, so one object has one spelling); a JSON number
 * must be a positive safe integer. An id beyond `MAX_ID` is returned as it is: it is well formed and
 * names no row, so callers answer "not found" (`isStorableId` tells them without asking the database).
 * The one id parser at the edge: HTTP path parameters, hub arguments and token subjects use it.
 */
export function parseId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : null;
  if (typeof value !== 'string' || !CANONICAL_ID.test(value)) return null;
  return Number(value);
}

/** True when a row could have this id (a positive integer within the id columns' range). */
export function isStorableId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_ID;
}

/** A path parameter holding an id: canonical decimal text (see `parseId`), as a number. */
export const idParamSchema = z
  .string({ error: 'validation.id' })
  .regex(CANONICAL_ID, { error: 'validation.id' })
  .transform((s) => parseId(s) as number);
