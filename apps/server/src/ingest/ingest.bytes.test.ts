import { checkIngestRequest, type IngestRequest } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { columnarBatch } from '../modules/readings/index.js';
import { type ParsedIngest, parseIngestBytes } from './ingest.bytes.js';

/** What the general path makes of a body: JSON.parse, the request check, then columns; null unless clean and strictly ordered. */
function general(text: string) {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const check = checkIngestRequest(data);
  if (!check?.clean || !check.ordered) return null;
  const body = data as IngestRequest;
  return columnarBatch({
    deviceId: 1,
    tz: 'UTC',
    readings: body.readings.map((r, i) => ({ ts: check.ts[i] as number, values: r.values })),
  });
}

/** The fast reader's answer equals the general path's: both null, or the same timestamps, parameters and values (bit for bit). */
function agree(text: string): ParsedIngest | null {
  const fast = parseIngestBytes(Buffer.from(text, 'latin1'));
  const slow = general(text);
  if (fast === null) return null;
  expect(slow, `general path refuses what the reader took: ${text.slice(0, 200)}`).not.toBeNull();
  if (!slow) return null;
  expect(fast.count).toBe(slow.ts.length);
  expect([...fast.ts]).toEqual([...slow.ts]);
  expect(fast.index).toEqual(slow.index);
  fast.cols.forEach((col, j) => {
    const want = slow.cols[j] as Float64Array;
    for (let i = 0; i < col.length; i++) expect(Object.is(col[i], want[i]), `value ${i}/${j} ${col[i]} vs ${want[i]}`).toBe(true);
  });
  expect(fast.minTs).toBe(slow.ts[0]);
  expect(fast.maxTs).toBe(slow.ts[slow.ts.length - 1]);
  return fast;
}

/** Deterministic pseudo-random numbers (the test must fail the same way twice). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const T0 = Date.UTC(2026, 2, 29, 0, 30);

function canonical(n: number, rand: () => number): string {
  const readings = Array.from({ length: n }, (_, i) => ({
    ts: new Date(T0 + i * 61_001 + Math.floor(rand() * 1000)).toISOString(),
    values: {
      vave1: Math.round((220 + rand() * 20) * 100) / 100,
      iave1: Math.round(rand() * 1e6) / 1e6,
      pave1: (rand() - 0.5) * 5000,
      eai1: 1000 + i * 0.125,
      ...(i % 3 === 0 ? { rssi: -Math.floor(rand() * 90) } : {}),
      ...(i % 5 === 0 ? { frq1: 50 } : {}),
    },
  }));
  return JSON.stringify({ readings });
}

describe('ingest body reader', () => {
  it('takes what devices send and gives exactly the general path’s timestamps and values', () => {
    const rand = rng(7);
    for (const n of [1, 2, 63, 64, 65, 200, 5000]) {
      const parsed = agree(canonical(n, rand));
      expect(parsed?.count).toBe(n);
    }
    // A full three-phase reading of one live meter.
    const one = JSON.stringify({
      readings: [
        { ts: '2026-11-26T10:00:00.000Z', values: { vave1: 230.1, vave2: 231, vave3: 229.99, pave1: -0, iave1: 0.05, eai1: 123456.789 } },
      ],
    });
    expect(agree(one)?.values(0)).toEqual({ vave1: 230.1, vave2: 231, vave3: 229.99, pave1: 0, iave1: 0.05, eai1: 123456.789 });
  });

  it('reads every JSON number form as JSON.parse does', () => {
    // pave1 takes -1e8 to 1e8: 15 significant digits and more, exponents, signed zeros.
    const forms = ['0', '-0', '0.0', '-0.0', '1', '12.5', '0.05', '0.1', '0.3', '230.12', '1e3', '1E3', '1.5e-3', '2.5E+2', '-1e-7'];
    forms.push(
      '12345678.9012345',
      '-1234567.890123456',
      '0.1234567890123456789',
      '99999999.99999999',
      '99999.999999999999',
      '0.000000000000000000001',
    );
    for (const f of forms) {
      const text = `{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"pave1":${f}}}]}`;
      const parsed = agree(text);
      expect(parsed, f).not.toBeNull();
      expect(Object.is(parsed?.cols[0]?.[0], JSON.parse(f)), f).toBe(true);
    }
  });

  it('accepts JSON whitespace anywhere between tokens and either key order', () => {
    const text =
      ' \n{ "readings" :\t[ { "values" : { "vave1" : 230.5 , "eai1":1 } , "ts" : "2026-11-26T10:00:00Z" } ,\r\n{"ts":"2026-11-26T11:01:00+01:00","values":{"eai1":2}} ] } \n';
    expect(agree(text)?.count).toBe(2);
  });

  it('leaves to the general path everything it does not take (which then answers as before)', () => {
    const ok = '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":230}}]}';
    expect(parseIngestBytes(Buffer.from(ok))).not.toBeNull();
    const refused = [
      '',
      '{}',
      '{"readings":[]}',
      '{"readings":[{}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"nope":1}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":"230"}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":null}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":01}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":1.}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":-}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":1e999}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"eai1":-5}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00","values":{"vave1":230}}]}',
      '{"readings":[{"ts":"2026-02-30T10:00:00.000Z","values":{"vave1":230}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","ts":"2026-11-26T10:01:00.000Z","values":{"vave1":230}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":230},"extra":1}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":230}}],"key":"x"}',
      '{"readings":[{"ts":"2026-11-26T10:01:00.000Z","values":{"vave1":230}},{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":231}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":230}},{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1":231}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave\\u0031":230}}]}',
      // Lone surrogates, escaped: the general path refuses them with a field error.
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z","values":{"vave1\\ud800":230}}]}',
      '{"readings":[{"ts":"2026-11-26T10:00:00.000Z\\udc00","values":{"vave1":230}}]}',
      `${ok} x`,
      ok.slice(0, -1),
      `[${ok}]`,
    ];
    for (const text of refused) expect(parseIngestBytes(Buffer.from(text)), text).toBeNull();
    // A surrogate as bytes (CESU-8 ED A0 80) is no ASCII: left to the general path too.
    const [before, after] = ok.split('vave1') as [string, string];
    expect(
      parseIngestBytes(Buffer.concat([Buffer.from(`${before}vave1`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(after)])),
    ).toBeNull();
    const many = JSON.stringify({
      readings: Array.from({ length: 5001 }, (_, i) => ({ ts: new Date(T0 + i * 1000).toISOString(), values: { vave1: 230 } })),
    });
    expect(parseIngestBytes(Buffer.from(many))).toBeNull();
  });

  it('agrees with the general path on thousands of mangled bodies', () => {
    const rand = rng(42);
    const alphabet = '{}[]:," \n0123456789.-+eE"tsvalue\\';
    let taken = 0;
    for (let k = 0; k < 3000; k++) {
      const base = canonical(1 + Math.floor(rand() * 4), rand);
      const chars = base.split('');
      const edits = 1 + Math.floor(rand() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rand() * chars.length);
        const op = rand();
        const ch = alphabet[Math.floor(rand() * alphabet.length)] as string;
        if (op < 0.4) chars[at] = ch;
        else if (op < 0.7) chars.splice(at, 1);
        else chars.splice(at, 0, ch);
      }
      if (agree(chars.join(''))) taken++;
    }
    // Some mangled bodies are still valid (a digit changed): those are taken, and agree.
    expect(taken).toBeGreaterThan(100);
  });
});
