import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_ROWS, IMPORT_GIVE_WAY, type ImportBatch, type ImportSettings, runImport } from './import-run.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-import-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `rows` 1-minute rows of Phasewatch's CSV layout (one parameter). */
function csv(rows: number): string {
  const file = path.join(dir, `rows-${rows}.csv`);
  const start = Date.parse('2026-01-05T00:00:00Z');
  const lines = ['time,pave1 [W]'];
  for (let i = 0; i < rows; i++) lines.push(`${new Date(start + i * 60_000).toISOString()},${100 + (i % 7)}`);
  writeFileSync(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

const settings = (dryRun: boolean): ImportSettings => ({
  deviceId: 1,
  format: 'phasewatch',
  dryRun,
  tz: 'Europe/Warsaw',
  deviceTz: 'Europe/Warsaw',
  now: Date.parse('2026-11-27T00:00:00Z'),
  oldest: 0,
  maxRows: 1_000_000,
});

describe('an import gives way to live work', () => {
  it('after each chunk is stored it waits as long as the store took before it asks the database again', async () => {
    const WRITE_MS = 80;
    const events: { what: 'asked' | 'stored'; at: number }[] = [];
    const batches: ImportBatch[] = [];
    const summary = await runImport(
      csv(10_000),
      settings(false),
      {
        async existing() {
          events.push({ what: 'asked', at: performance.now() });
          return [];
        },
        async write(batch) {
          await new Promise((r) => setTimeout(r, WRITE_MS));
          batches.push(batch);
          events.push({ what: 'stored', at: performance.now() });
        },
      },
      async () => {},
    );
    expect(summary.imported).toBe(10_000);
    const chunks = Math.ceil(10_000 / CHUNK_ROWS);
    expect(chunks).toBeGreaterThan(2);
    expect(batches.length).toBe(chunks);
    // Every question after a chunk was stored came at least the store's time later.
    const gaps: number[] = [];
    for (let i = 1; i < events.length; i++) {
      const prev = events[i - 1];
      const cur = events[i];
      if (prev?.what === 'stored' && cur?.what === 'asked') gaps.push(cur.at - prev.at);
    }
    expect(gaps.length).toBe(chunks - 1);
    expect(IMPORT_GIVE_WAY).toBeGreaterThan(0);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(WRITE_MS * IMPORT_GIVE_WAY - 5);
  });

  it('a dry run asks what the device has for every chunk and writes nothing', async () => {
    const asked: number[] = [];
    const summary = await runImport(
      csv(10_000),
      settings(true),
      {
        async existing() {
          asked.push(performance.now());
          return [];
        },
        write: () => Promise.reject(new Error('a dry run writes nothing')),
      },
      async () => {},
    );
    expect(summary.imported).toBe(10_000);
    expect(asked.length).toBe(Math.ceil(10_000 / CHUNK_ROWS));
  });
});
