import { describe, expect, it } from 'vitest';
import {
  checkIngestRequest,
  ingestRequestSchema,
  isWellFormedIngestRequest,
  MAX_INGEST_BATCH,
  parseIsoTimestamp,
} from './ingest.schema.js';
import { parameterInfo, readingValueProblem } from './parameters.js';

const ok = { ts: '2026-03-29T01:59:59.999Z', values: { vave1: 230, eai1: 12.5 } };

/** Bodies as JSON.parse gives them, good and bad in every way the schema or the catalogue cares about. */
const bodies: [string, unknown][] = [
  ['one reading', { readings: [ok] }],
  ['a full batch', { readings: Array.from({ length: MAX_INGEST_BATCH }, () => ok) }],
  ['empty values', { readings: [{ ts: ok.ts, values: {} }] }],
  ['too many', { readings: Array.from({ length: MAX_INGEST_BATCH + 1 }, () => ok) }],
  ['no readings', { readings: [] }],
  ['readings not an array', { readings: { 0: ok } }],
  ['extra top-level key', { readings: [ok], key: 'x' }],
  ['body an array', [ok]],
  ['body null', null],
  ['body a string', 'readings'],
  ['reading null', { readings: [ok, null] }],
  ['reading an array', { readings: [ok, [ok.ts, ok.values]] }],
  ['extra reading key', { readings: [{ ...ok, id: 1 }] }],
  ['missing ts', { readings: [{ values: ok.values }] }],
  ['missing values', { readings: [{ ts: ok.ts }] }],
  ['ts a number', { readings: [{ ts: 1, values: ok.values }] }],
  ['ts empty', { readings: [{ ts: '', values: ok.values }] }],
  ['ts too long', { readings: [{ ts: 'x'.repeat(41), values: ok.values }] }],
  ['values an array', { readings: [{ ts: ok.ts, values: [230] }] }],
  ['values null', { readings: [{ ts: ok.ts, values: null }] }],
  ['value a string', { readings: [{ ts: ok.ts, values: { vave1: '230' } }] }],
  ['value null', { readings: [{ ts: ok.ts, values: { vave1: null } }] }],
  ['unknown parameter', { readings: [{ ts: ok.ts, values: { nope: 1 } }] }],
  ['__proto__ parameter', JSON.parse(`{"readings":[{"ts":"${ok.ts}","values":{"__proto__":1}}]}`)],
];

describe('isWellFormedIngestRequest', () => {
  it.each(bodies)('never accepts what the schema refuses, and accepts the usual shape: %s', (_, body) => {
    const fast = isWellFormedIngestRequest(body);
    const schema = ingestRequestSchema.safeParse(body).success;
    if (fast) expect(schema).toBe(true);
    expect(fast).toBe(['one reading', 'a full batch', 'empty values'].includes(_));
  });
});

describe('checkIngestRequest', () => {
  it.each(bodies)('is null exactly when isWellFormedIngestRequest is false: %s', (_, body) => {
    expect(checkIngestRequest(body) !== null).toBe(isWellFormedIngestRequest(body));
  });

  /** What the server's reading-by-reading loop concludes, without the clock: the reference. */
  const reference = (readings: { ts: string; values: Record<string, number> }[]) => {
    const ts = readings.map((r) => parseIsoTimestamp(r.ts) ?? Number.NaN);
    const clean = readings.every(
      (r, i) =>
        !Number.isNaN(ts[i]) &&
        Object.keys(r.values).length > 0 &&
        Object.entries(r.values).every(([name, v]) => {
          const info = parameterInfo(name);
          return info !== undefined && readingValueProblem(info, v) === null;
        }),
    );
    const valid = ts.filter((t) => !Number.isNaN(t));
    return {
      ts: Float64Array.from(ts),
      ordered: valid.every((t, i) => i === 0 || t > (valid[i - 1] as number)),
      clean,
      ...(clean ? { minTs: Math.min(...valid), maxTs: Math.max(...valid) } : {}),
    };
  };
  const at = (minute: number, values: Record<string, number> = ok.values) => ({
    ts: new Date(Date.UTC(2026, 2, 29, 0, minute)).toISOString(),
    values,
  });
  const batches: [string, { ts: string; values: Record<string, number> }[]][] = [
    ['consecutive minutes over hours', Array.from({ length: 200 }, (_, i) => at(i))],
    ['out of order', [at(3), at(1), at(2)]],
    ['a repeated timestamp', [at(1), at(2), at(2), at(3)]],
    [
      'timestamps in other spellings',
      [at(1), { ts: '2026-03-29T02:02:00+02:00', values: ok.values }, { ts: '2026-03-29T00:03:00Z', values: ok.values }],
    ],
    ['an unparsable timestamp', [at(1), { ts: 'yesterday', values: ok.values }, at(3)]],
    ['an impossible date', [at(1), { ts: '2026-02-30T10:00:00.000Z', values: ok.values }]],
    ['empty values', [at(1), at(2, {})]],
    ['a negative counter', [at(1), at(2, { vave1: 230, eai1: -1 })]],
    ['a negative instant value', [at(1), at(2, { vave1: 230, pave1: -1 })]],
    ['a value beyond 1e9', [at(1), at(2, { vave1: 2e9, eai1: 1 })]],
    // The per-position catalogue cache: other names, orders and counts than the reading before.
    ['parameters in another order', [at(1, { vave1: 1, eai1: 2 }), at(2, { eai1: -2, vave1: 1 })]],
    ['fewer, then more parameters', [at(1, { vave1: 1, eai1: 2, rssi: -60 }), at(2, { eai1: 3 }), at(3, { pave1: 1, eai1: 4, eae1: -1 })]],
  ];
  it.each(batches)('parses and judges each reading as the server loop does: %s', (_, readings) => {
    const check = checkIngestRequest({ readings });
    expect(check).not.toBeNull();
    const { minTs, maxTs, ...rest } = check as NonNullable<typeof check>;
    const want = reference(readings);
    expect(rest).toEqual({ ts: want.ts, ordered: want.ordered, clean: want.clean });
    if (want.clean) expect({ minTs, maxTs }).toEqual({ minTs: want.minTs, maxTs: want.maxTs });
  });
  it('refuses an unknown parameter where the reading before had a known one', () => {
    expect(checkIngestRequest({ readings: [at(1, { vave1: 1, eai1: 2 }), at(2, { vave1: 1, nope: 2 })] })).toBeNull();
    expect(checkIngestRequest({ readings: [at(1, { vave1: 1 }), at(2, { vave1: 1, eai1: 1, nope: 2 })] })).toBeNull();
  });
});

describe('parseIsoTimestamp', () => {
  const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
  // Date.parse rolls impossible dates over (02-30 → March 2); the reference refuses them by comparing
  // the date written with the UTC date it parses to (all cases here are in UTC).
  const reference = (s: string) => {
    if (!ISO_WITH_ZONE.test(s)) return null;
    const ms = Date.parse(s);
    if (!Number.isFinite(ms)) return null;
    return s.endsWith('Z') && !s.includes('T24:') && new Date(ms).toISOString().slice(0, 10) !== s.slice(0, 10) ? null : ms;
  };
  it('refuses impossible calendar dates and accepts a leap day', () => {
    expect(parseIsoTimestamp('2026-02-29T12:00:00.000Z')).toBeNull();
    expect(parseIsoTimestamp('2026-04-31T12:00:00Z')).toBeNull();
    expect(parseIsoTimestamp('2026-13-01T12:00:00+01:00')).toBeNull();
    expect(parseIsoTimestamp('2028-02-29T12:00:00.000Z')).toBe(Date.UTC(2028, 1, 29, 12));
  });
  const cases = [
    '2026-03-29T01:59:59.999Z',
    '2026-03-29T01:00:00.000Z',
    '2026-03-29T01:07:08Z',
    '2026-03-29T02:07:08.123+02:00',
    '2026-03-29t01:07:08.123z',
    '2026-12-31T23:59:59.999Z',
    '2024-02-29T12:00:00.000Z',
    '2026-02-29T12:00:00.000Z',
    '2026-02-30T12:00:00.000Z',
    '2026-13-01T12:00:00.000Z',
    '2026-01-01T24:00:00.000Z',
    '2026-01-01T24:30:00.000Z',
    '2026-01-01T23:60:00.000Z',
    '2026-01-01T23:59:60.000Z',
    '2026-01-01T23:5x:00.000Z',
    '2026-01-01T23:59:00.0a0Z',
    '2026-01-01T23:59:00,000Z',
    '2026-01-01 23:59:00.000Z',
    '2026-01-01T23:59:00.000',
    'yesterday',
    '',
  ];
  it.each(cases)('answers %s as the regex and Date.parse do', (s) => {
    // Twice: the second answer may come from the cached hour.
    expect(parseIsoTimestamp(s)).toBe(reference(s));
    expect(parseIsoTimestamp(s)).toBe(reference(s));
  });
  it('reads consecutive minutes of one hour from the cache correctly', () => {
    const start = Date.UTC(2026, 9, 25, 0, 0, 0);
    for (let i = 0; i < 7200; i += 7) {
      const s = new Date(start + i * 1000 + (i % 1000)).toISOString();
      expect(parseIsoTimestamp(s)).toBe(Date.parse(s));
    }
  });
});
