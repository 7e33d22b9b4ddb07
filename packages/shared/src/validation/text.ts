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

/**
 * A single-line text field (names, model, full name): trimmed, at most `max` characters, no control
 * characters, so both dialects store exactly what was accepted (PostgreSQL refuses U+0000 in text;
 * SQLite keeps it) and both answer the same 400 otherwise.
 */
export function singleLineText(max: number) {
  return z
    .string({ error: 'validation.required' })
    .trim()
    .max(max, { error: 'validation.tooLong' })
    .refine(hasNoControlCharacters, { error: 'validation.controlCharacters' });
}
