import { describe, expect, it } from 'vitest';
import { isWellFormedText, singleLineText } from './text.js';

describe('isWellFormedText', () => {
  it.each(['a\uD800b', '\uD800', '\uDFFF', 'x\uDC00', 'ab\uDBFF', '\uDC00\uD800'])('refuses a lone surrogate in %j', (s) => {
    expect(isWellFormedText(s)).toBe(false);
  });

  it.each(['', 'plain', 'zażółć', '⚡ 🔌 meter', '\uD83D\uDD0C', 'a\u0000b'])(
    'accepts well-formed text %j (control characters are another rule)',
    (s) => {
      expect(isWellFormedText(s)).toBe(true);
    },
  );
});

describe('singleLineText', () => {
  it('names the lone surrogate apart from control characters', () => {
    const schema = singleLineText(20);
    expect(schema.safeParse('Kitchen 🔌').data).toBe('Kitchen 🔌');
    expect(schema.safeParse('a\uD800b').error?.issues.map((i) => i.message)).toEqual(['validation.invalidText']);
    expect(schema.safeParse('a\u0000b').error?.issues.map((i) => i.message)).toEqual(['validation.controlCharacters']);
  });
});
