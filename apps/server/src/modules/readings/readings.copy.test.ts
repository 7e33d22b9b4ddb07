import { afterEach, describe, expect, it } from 'vitest';
import { createTestStorage, DIALECTS, insertOwnerWithDevices, packedRollupRows, type TestStorage } from '../../test/storage.js';
import { RAW_COLUMNS, readRawAll } from './readings.raw.js';
import { ReadingsRepository } from './readings.repository.js';
import { floorTo, H1 } from './readings.rollup.js';
import { COPY_MIN_ROWS, copyText, SqlRunner } from './readings.sql.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;

describe('COPY text', () => {
  it('writes numbers as the shortest text that reads back as the same double, NULL as \\N', () => {
    const values = [0.1 + 0.2, 1e-7, 12345.678, -3, 231.2, 2 ** 53 + 2];
    const text = [
      ...copyText({
        table: 'readings',
        key: ['device_id', 'ts'],
        cols: ['a', 'b'],
        count: values.length,
        keepOld: true,
        rowsPerStatement: 1,
        fill(k, out, o) {
          out[o] = 7;
          out[o + 1] = 1_795_000_000_000 + k;
          out[o + 2] = values[k] as number;
          out[o + 3] = null;
        },
      }),
    ].join('');
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(values.length + 1);
    lines.slice(0, -1).forEach((line, k) => {
      const [id, ts, a, b] = line.split('\t');
      expect([id, ts, b]).toEqual(['7', String(1_795_000_000_000 + k), '\\N']);
      expect(Number(a)).toBe(values[k]);
    });
  });
});

describe.each(DIALECTS)('raw rows of a large write (%s: COPY into a staging table on PostgreSQL)', (dialect) => {
  let ts: TestStorage | undefined;
  const repos: ReadingsRepository[] = [];
  afterEach(async () => {
    for (const r of repos.splice(0)) await r.close();
    await ts?.dispose();
  });

  it('stores, upserts and rolls up exactly as small writes do: a repeat updates, a missing value keeps the stored one', async () => {
    ts = await createTestStorage(dialect);
    await insertOwnerWithDevices(ts.storage.db as never, 2, TZ);
    const repo = new ReadingsRepository(ts.storage);
    repos.push(repo);
    const n = 4 * COPY_MIN_ROWS;
    const start = floorTo(Date.now(), H1) - 30 * H1;
    const first = Array.from({ length: n }, (_, i) => ({
      ts: start + i * MIN,
      values: { eai1: 100 + i * 0.013, vave1: 225 + (i % 11) * 0.1, ...(i % 3 === 0 ? { iave1: 1.5 + i * 0.001 } : {}) },
    }));
    // Half of them again, with a new voltage and a parameter of their own, but without eai1.
    const second = first.filter((_, i) => i % 2 === 0).map((r) => ({ ts: r.ts, values: { vave1: 240, pave1: 10 } }));
    // Device 1: one write of them all (COPY on PostgreSQL); device 2: writes below the COPY threshold.
    await repo.write([{ deviceId: 1, tz: TZ, readings: first }]);
    await repo.write([{ deviceId: 1, tz: TZ, readings: second }]);
    const small = COPY_MIN_ROWS / 4;
    for (let i = 0; i < n; i += small) await repo.write([{ deviceId: 2, tz: TZ, readings: first.slice(i, i + small) }]);
    for (let i = 0; i < second.length; i += small) await repo.write([{ deviceId: 2, tz: TZ, readings: second.slice(i, i + small) }]);

    const runner = new SqlRunner(ts.storage);
    const one = await readRawAll(runner.reader, 1, start, start + n * MIN);
    const two = await readRawAll(runner.reader, 2, start, start + n * MIN);
    expect(one.ts).toHaveLength(n);
    expect(one).toEqual(two);
    const at = (name: string, i: number) => one.cols[RAW_COLUMNS.indexOf(name)]?.[i];
    expect([at('vave1', 0), at('eai1', 0), at('pave1', 0)]).toEqual([240, 100, 10]);
    expect([at('vave1', 1), at('eai1', 1), at('pave1', 1), at('iave1', 3)]).toEqual([225.1, 100.013, Number.NaN, 1.503]);
    while (await repo.compactDue(floorTo(Date.now(), H1), 100_000)) {}
    expect(await packedRollupRows(ts.storage, 1)).toEqual(await packedRollupRows(ts.storage, 2));
    if (dialect === 'postgres') {
      // The large write went through the staging table (a temporary table of the writer's connection).
      const staged = await runner.reader.all("SELECT count(*)::int AS n FROM pg_class WHERE relname = 'pw_stage_readings'", []);
      expect(staged[0]?.n).toBeGreaterThan(0);
    }
  });

  it('a write that meets no stored row goes straight into the table (no staging, no upsert); one that does, or a late one, still upserts', async () => {
    ts = await createTestStorage(dialect);
    await insertOwnerWithDevices(ts.storage.db as never, 1, TZ);
    const repo = new ReadingsRepository(ts.storage);
    repos.push(repo);
    const runner = new SqlRunner(ts.storage);
    const stagingTables = async () =>
      dialect === 'postgres'
        ? Number((await runner.reader.all("SELECT count(*)::int AS n FROM pg_class WHERE relname = 'pw_stage_readings'", []))[0]?.n)
        : 0;
    const n = 2 * COPY_MIN_ROWS;
    const start = floorTo(Date.now(), H1) - 30 * H1;
    const rows = (from: number, count: number, v: number) =>
      Array.from({ length: count }, (_, i) => ({
        ts: from + i * MIN,
        values: { vave1: v + (i % 7) * 0.1, eai1: 50 + (from - start) / MIN + i },
      }));
    // Two fresh writes, one after the other: inserted as they are.
    await repo.write([{ deviceId: 1, tz: TZ, readings: rows(start, n, 230) }]);
    await repo.write([{ deviceId: 1, tz: TZ, readings: rows(start + n * MIN, n, 231) }]);
    expect(await stagingTables()).toBe(0);
    // A write over stored rows (its second half is new): the upsert keeps what it does not carry.
    const over = rows(start + (3 * n * MIN) / 2, n, 240).map((r) => ({ ts: r.ts, values: { vave1: r.values.vave1 } }));
    await repo.write([{ deviceId: 1, tz: TZ, readings: over }]);
    if (dialect === 'postgres') expect(await stagingTables()).toBeGreaterThan(0);
    const all = await readRawAll(runner.reader, 1, start, start + 3 * n * MIN);
    expect(all.ts).toHaveLength((5 * n) / 2);
    const at = (name: string, i: number) => all.cols[RAW_COLUMNS.indexOf(name)]?.[i];
    // Before the overlap: the first writes' values; in it: the new voltage and the stored energy; after it: no energy.
    const mid = (3 * n) / 2;
    expect([at('vave1', 0), at('eai1', 0), at('vave1', n), at('eai1', n)]).toEqual([230, 50, 231, 50 + n]);
    expect([at('vave1', mid), at('eai1', mid)]).toEqual([240, 50 + mid]);
    expect([at('vave1', 2 * n), at('eai1', 2 * n)]).toEqual([240 + ((n / 2) % 7) * 0.1, Number.NaN]);
  });
});
