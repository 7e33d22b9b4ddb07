import { describe, expect, it } from 'vitest';
import { idParamSchema, isStorableId, MAX_ID, parseId } from './id.js';

describe('parseId', () => {
  it.each([
    '1e0',
    '0x10',
    '0b1',
    '0o7',
    '+1',
    '-1',
    '0001',
    '0',
    '1 ',
    ' 1',
    '1%20',
    '1.0',
    '1.',
    '',
    '١',
    '1_000',
    'Infinity',
    '9'.repeat(21),
  ])('refuses the spelling %j', (s) => {
    expect(parseId(s)).toBeNull();
    expect(idParamSchema.safeParse(s).success).toBe(false);
  });

  it('reads canonical decimal text and positive safe integers', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('42')).toBe(42);
    expect(parseId(7)).toBe(7);
    expect(idParamSchema.parse('2147483647')).toBe(MAX_ID);
    for (const v of [0, -1, 1.5, Number.NaN, 2 ** 53, true, null, undefined, {}, [1]]) expect(parseId(v)).toBeNull();
  });

  it('keeps well-formed ids beyond the id columns, which name no row', () => {
    expect(parseId('2147483648')).toBe(2_147_483_648);
    expect(isStorableId(2_147_483_648)).toBe(false);
    expect(isStorableId(MAX_ID)).toBe(true);
    expect(isStorableId(0)).toBe(false);
  });
});
