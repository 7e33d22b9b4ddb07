import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExportJob } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';

/**
 * The CSV opens cleanly where people open it: Python's csv module, pandas and LibreOffice Calc (headless,
 * Debian's packages, installed by `npm test`'s set-up) read it back value by value: the header, the local
 * times with their offsets (the repeated autumn hour twice), numbers as numbers, empty cells as empty.
 * The file's format does not depend on the database: SQLite only (exports.test.ts runs both).
 */

const MIN = 60_000;
const PYTHON = '/usr/bin/python3';

let t: TestApp;
let dir: string;
let file: string;
const sent: { ts: number; values: Record<string, number> }[] = [];

beforeAll(async () => {
  t = await buildTestApp('sqlite', { rawRetentionDays: 36_500 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'pw-csv-'));
  const user = await signUp(t.app);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: user.auth,
    payload: { name: 'Thermostat', mac: '60:00:00:00:00:01', typeCode: 17 },
  });
  const { device, ingestKey } = created.json() as { device: { id: number }; ingestKey: string };
  // Across the autumn change in Warsaw, with a temperature (°C in its header), small and negative
  // figures, and a parameter missing from some readings.
  const start = Date.parse('2026-10-25T00:00:00Z');
  for (let i = 0; i < 12; i++) {
    // Rounded as a meter sends them (pandas and LibreOffice read 15 significant digits, not 17).
    const values: Record<string, number> = {
      tempmain: -3.25 + i * 0.5,
      pave1: i % 2 ? 0.001 : -1500.5,
      eai1: Math.round((12_345.678 + i * 0.001) * 1000) / 1000,
    };
    if (i % 3 !== 0) values.tempset = 21.5;
    sent.push({ ts: start + i * 15 * MIN, values });
  }
  const ingest = await t.app.inject({
    method: 'POST',
    url: '/api/ingest',
    headers: { 'x-device-key': ingestKey },
    payload: { readings: sent.map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) },
  });
  expect(ingest.statusCode, ingest.body).toBe(200);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/exports',
    headers: user.auth,
    payload: {
      deviceId: device.id,
      parameters: ['pave1', 'eai1', 'tempmain', 'tempset'],
      from: new Date(start).toISOString(),
      to: new Date(start + 3 * 3_600_000).toISOString(),
      interval: 'raw',
      format: 'csv',
      fileName: 'formats',
    },
  });
  const job = res.json() as ExportJob;
  await t.ctx.jobs.queue.idle();
  const download = await t.app.inject({ method: 'POST', url: `/api/exports/${job.id}/download`, headers: user.auth });
  expect(download.statusCode).toBe(200);
  file = path.join(dir, 'formats.csv');
  writeFileSync(file, download.rawPayload);
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const HEADER = ['time', 'pave1 [W]', 'eai1 [kWh]', 'tempmain [°C]', 'tempset [°C]'];

describe('the CSV file', () => {
  it("reads back value by value with Python's csv module", () => {
    const out = execFileSync(
      PYTHON,
      [
        '-c',
        'import csv, json, sys\nwith open(sys.argv[1], newline="", encoding="utf-8") as f:\n    print(json.dumps(list(csv.reader(f))))',
        file,
      ],
      { encoding: 'utf8' },
    );
    const rows = JSON.parse(out) as string[][];
    expect(rows[0]).toEqual(HEADER);
    expect(rows).toHaveLength(sent.length + 1);
    rows.slice(1).forEach((r, i) => {
      const s = sent[i] as (typeof sent)[number];
      expect(Date.parse(r[0] as string)).toBe(s.ts);
      expect(r.slice(1)).toEqual(
        [s.values.pave1, s.values.eai1, s.values.tempmain, s.values.tempset].map((v) => (v === undefined ? '' : String(v))),
      );
    });
    // 02:00–02:59 local twice: before (+02:00) and after (+01:00) the clocks went back.
    expect(rows.map((r) => r[0]).filter((x) => x?.slice(11, 13) === '02')).toEqual([
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:15:00+02:00',
      '2026-10-25T02:30:00+02:00',
      '2026-10-25T02:45:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T02:15:00+01:00',
      '2026-10-25T02:30:00+01:00',
      '2026-10-25T02:45:00+01:00',
    ]);
  });

  it('reads with pandas: numeric columns as floats, times to the same instants, missing values as NaN', () => {
    const script = [
      'import json, sys',
      'import pandas as pd',
      'df = pd.read_csv(sys.argv[1])',
      'times = pd.to_datetime(df["time"], utc=True)',
      'print(json.dumps({"columns": list(df.columns), "dtypes": [str(t) for t in df.dtypes],',
      '  "ms": [int(t.value // 1_000_000) for t in times],',
      '  "values": [[None if pd.isna(v) else float(v) for v in df[c]] for c in df.columns[1:]]}))',
    ].join('\n');
    const out = JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' })) as {
      columns: string[];
      dtypes: string[];
      ms: number[];
      values: (number | null)[][];
    };
    expect(out.columns).toEqual(HEADER);
    expect(out.dtypes).toEqual(['object', 'float64', 'float64', 'float64', 'float64']);
    expect(out.ms).toEqual(sent.map((s) => s.ts));
    expect(out.values).toEqual(
      (['pave1', 'eai1', 'tempmain', 'tempset'] as const).map((p) =>
        sent.map((s) => (s.values[p] === undefined ? null : (s.values[p] as number))),
      ),
    );
  });

  it('opens in LibreOffice Calc: numbers as numbers, times as the text written', () => {
    const profile = mkdtempSync(path.join(os.tmpdir(), 'pw-lo-'));
    try {
      // The import LibreOffice offers for a .csv: comma, double quote, UTF-8, English (USA) numbers.
      execFileSync(
        'soffice',
        [
          `-env:UserInstallation=file://${profile}`,
          '--headless',
          '--norestore',
          '--infilter=CSV:44,34,76,1,,1033,false,false',
          '--convert-to',
          'fods',
          '--outdir',
          dir,
          file,
        ],
        { stdio: 'ignore', timeout: 120_000 },
      );
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
    const xml = readFileSync(path.join(dir, 'formats.fods'), 'utf8');
    const rows = [...xml.matchAll(/<table:table-row[^>]*>([\s\S]*?)<\/table:table-row>/g)].map((m) =>
      [...(m[1] as string).matchAll(/<table:table-cell([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)].map((c) => {
        const attrs = c[1] as string;
        const repeat = Number(/table:number-columns-repeated="(\d+)"/.exec(attrs)?.[1] ?? 1);
        const type = /office:value-type="(\w+)"/.exec(attrs)?.[1] ?? 'empty';
        const value = /office:value="([^"]+)"/.exec(attrs)?.[1];
        const text = /<text:p>([\s\S]*?)<\/text:p>/.exec(c[2] ?? '')?.[1] ?? '';
        return { type, value: value === undefined ? text : Number(value), repeat };
      }),
    );
    const cells = rows
      .map((r) => r.flatMap((c) => Array.from({ length: Math.min(c.repeat, 8) }, () => c)))
      .filter((r) => r.some((c) => c.type !== 'empty'));
    expect(cells[0]?.slice(0, 5).map((c) => c.value)).toEqual(HEADER);
    expect(cells).toHaveLength(sent.length + 1);
    cells.slice(1).forEach((r, i) => {
      const s = sent[i] as (typeof sent)[number];
      expect(r[0]).toMatchObject({ type: 'string' });
      expect(Date.parse(String(r[0]?.value))).toBe(s.ts);
      (['pave1', 'eai1', 'tempmain', 'tempset'] as const).forEach((p, j) => {
        const cell = r[j + 1];
        if (s.values[p] === undefined) expect(cell?.type ?? 'empty').toBe('empty');
        else expect(cell).toMatchObject({ type: 'float', value: s.values[p] });
      });
    });
  });
});
