import { z } from 'zod';

/**
 * True when the text holds no C0 control character (U+0000–U+001F) or DEL: never part of a name, and
 * PostgreSQL cannot store U+0000 in text (see `singleLineText`).
 */
export function hasNoControlCharacters(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  return true;
}

/** In unicode mode a class of surrogates matches only a lone one: a pair is one code point above U+FFFF. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * True when the text is well-formed UTF-16: no surrogate without its other half. A lone surrogate
 * cannot be written as UTF-8, so each storage replaces it its own way (SQLite with three U+FFFD,
 * PostgreSQL with one) and stores something other than what was accepted; a password with one hashes
 * like any other with U+FFFD there.
 */
export function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/**
 * A single-line text field (names, model, full name): trimmed, at most `max` characters, no control
 * characters and no lone surrogates, so both dialects store exactly what was accepted (PostgreSQL
 * refuses U+0000 in text; SQLite keeps it) and both answer the same 400 otherwise.
 */
export function singleLineText(max: number) {
  return z
    .string({ error: 'validation.required' })
    .trim()
    .max(max, { error: 'validation.tooLong' })
    .refine(hasNoControlCharacters, { error: 'validation.controlCharacters' })
    .refine(isWellFormedText, { error: 'validation.invalidText' });
}
