import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type ExportRequestParsed, zonedTimeToUtc } from '@phasewatch/shared';
import { ZonedIso } from '../apps/server/src/modules/exports/index.js';
import type { BenchContext } from './run.js';
import { timed } from './support/timing.js';
import { BENCH_PARAMS, benchApp, benchReadings } from './telemetry-fixtures.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
const DAY = 86_400_000;
const LOAD_BATCH = 5000;

// As the server runs (server.ts): the old generation grows at most 50 % past what the last full
// collection kept. And a collection before each measured step, so each starts from the live heap.
setFlagsFromString('--heap-growing-percent=50');
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resident anonymous memory (heap, buffers; not the SQLite file's memory-mapped pages) and all resident memory, in bytes. */
function rss(): { anon: number; all: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { anon: kb('RssAnon'), all: kb('VmRSS') };
}

/**
 * Samples resident memory every 20 ms while `fn` runs: the peak growth of anonymous memory (what the
 * work holds; the SQLite file is memory-mapped, and the pages a read touches count in RSS as the page
 * cache they are) and of all of it.
 */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; growthMb: number; allMb: number; ms: number }> {
  gc();
  const before = rss();
  const peak = { ...before };
  const sample = () => {
    const now = rss();
    peak.anon = Math.max(peak.anon, now.anon);
    peak.all = Math.max(peak.all, now.all);
  };
  const timer = setInterval(sample, 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    sample();
    return {
      value,
      growthMb: (peak.anon - before.anon) / 1024 / 1024,
      allMb: (peak.all - before.all) / 1024 / 1024,
      ms: performance.now() - t0,
    };
  } finally {
    clearInterval(timer);
  }
}

async function oneDialect(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const from = zonedTimeToUtc(TZ, 2025, 1, 1);
  const to = zonedTimeToUtc(TZ, 2026, 1, 1);
  const count = Math.round((to - from) / MIN);
  const app = await benchApp(dialect, ctx.pgUrl);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-export-bench-'));
  try {
    const { telemetry, analytics, jobs } = app.ctx;
    // A year of 1-minute readings of 10 parameters, loaded as ingest writes them (raw rows and rollups).
    for (let i = 0; i < count; i += LOAD_BATCH) {
      await telemetry.writer.write({
        deviceId: app.deviceId,
        tz: TZ,
        readings: benchReadings(from + i * MIN, Math.min(LOAD_BATCH, count - i), MIN),
      });
    }
    await telemetry.compactNow();

    const params = [...BENCH_PARAMS];
    // The export: queued, run by the job queue's worker, stored in pieces (what POST /api/exports starts).
    const request: ExportRequestParsed = {
      deviceId: app.deviceId,
      parameters: params,
      allParameters: false,
      from,
      to,
      interval: 'raw',
      format: 'csv',
      fileName: 'year',
    };
    const exportOnce = () =>
      peakRss(async () => {
        const job = await analytics.exports.create(app.userId, request);
        await jobs.queue.idle(600_000);
        return analytics.exports.get(app.userId, job.id);
      });
    // The first run from cold (the memory a server sees); then the export and the plain loop taken in
    // turns, three rounds after a warm-up of the loop, each figure the median of its three (the machine is
    // shared: a single pair can land in different moments of other work).
    const cold = await exportOnce();
    if (cold.value.status !== 'done') throw new Error(`${label}: the export ${cold.value.status}: ${cold.value.error}`);
    // Baseline: the same rows read from the same table day by day and written with a plain loop
    // (local time with its offset, then the numbers) straight to a file.
    const repo = telemetry.readingsRepository;
    const file = path.join(tmp, 'plain.csv');
    const plainOnce = () =>
      peakRss(async () => {
        const fd = openSync(file, 'w');
        const iso = new ZonedIso(TZ);
        let rows = 0;
        writeSync(fd, `time,${params.join(',')}\r\n`);
        for (let a = from; a < to; a += DAY) {
          const raw = await repo.raw(app.deviceId, a, Math.min(to, a + DAY), params);
          let out = '';
          for (let i = 0; i < raw.ts.length; i++) {
            out += iso.format(raw.ts[i] as number);
            for (const col of raw.cols) {
              const v = col[i] as number;
              out += Number.isNaN(v) ? ',' : `,${v}`;
            }
            out += '\r\n';
          }
          writeSync(fd, out);
          rows += raw.ts.length;
        }
        closeSync(fd);
        return rows;
      });
    await plainOnce();
    const runs: Awaited<ReturnType<typeof exportOnce>>[] = [];
    const plains: Awaited<ReturnType<typeof plainOnce>>[] = [];
    for (let round = 0; round < 3; round++) {
      runs.push(await exportOnce());
      plains.push(await plainOnce());
    }
    const median = <T extends { ms: number }>(xs: T[]) => [...xs].sort((a, b) => a.ms - b.ms)[1] as T;
    const run = median(runs);
    const plain = median(plains);
    const job = run.value;
    if (job.status !== 'done') throw new Error(`${label}: the export ${job.status}: ${job.error}`);
    const plainRate = plain.value / (plain.ms / 1000);

    const rate = count / (run.ms / 1000);
    ctx.report(
      `${label} CSV export, a year of 1-minute readings (raw)`,
      rate,
      'rows/s',
      `${count.toLocaleString('en')} rows × ${params.length} parameters, ${((job.size ?? 0) / 1e6).toFixed(0)} MB in ${(run.ms / 1000).toFixed(1)} s; ${((rate / plainRate) * 100).toFixed(0)} % of the plain loop (target ≥ 50 %)`,
    );
    ctx.report(
      `${label} CSV export, peak RSS growth (first run, from cold)`,
      cold.growthMb,
      'MB',
      `anonymous memory (target ≤ 50 MB); all resident memory incl. mapped file pages ${cold.allMb.toFixed(0)} MB; ${(cold.ms / 1000).toFixed(1)} s`,
    );
    ctx.report(
      `${label} plain loop to a file (baseline)`,
      plainRate,
      'rows/s',
      `${(statSync(file).size / 1e6).toFixed(0)} MB in ${(plain.ms / 1000).toFixed(1)} s; RSS growth ${plain.growthMb.toFixed(0)} MB (all resident ${plain.allMb.toFixed(0)} MB)`,
    );
    const download = await peakRss(async () => {
      const file2 = await analytics.exports.download(app.userId, job.id);
      let bytes = 0;
      for await (const piece of file2.stream) bytes += (piece as Buffer).length;
      return bytes;
    });
    ctx.report(
      `${label} CSV download (stored pieces read back)`,
      download.ms,
      'ms',
      `${(download.value / 1e6).toFixed(0)} MB; RSS growth ${download.growthMb.toFixed(0)} MB`,
    );

    // The PDF at its longest hourly range (124 days: ~3,000 rows, ~60 pages).
    const pdf = await peakRss(async () => {
      const j = await analytics.exports.create(app.userId, { ...request, interval: '1h', format: 'pdf', from, to: from + 124 * DAY });
      await jobs.queue.idle(600_000);
      return analytics.exports.get(app.userId, j.id);
    });
    ctx.report(
      `${label} PDF export, 124 days hourly (its limit)`,
      pdf.ms,
      'ms',
      `${((pdf.value.size ?? 0) / 1e6).toFixed(1)} MB; RSS growth ${pdf.growthMb.toFixed(0)} MB`,
    );

    // Heatmaps of the year, from rollups.
    for (const kind of ['daily', 'weekly', 'monthly', 'yearly'] as const) {
      for (const parameter of ['energy', 'vave1']) {
        const h = await timed(2, 7, () =>
          analytics.analytics.heatmap(app.userId, { deviceId: app.deviceId, parameter, kind, from: '2025-01-01', to: '2025-12-31' }),
        );
        const cells = h.value.values.reduce((n, r) => n + r.length, 0);
        ctx.report(
          `${label} ${kind} heatmap of a year (${parameter})`,
          h.ms,
          'ms',
          `${h.value.rows.length} rows, ${cells} cells (target ≤ 100 ms)`,
        );
      }
    }
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Export and heatmap costs for one device with a year of 1-minute readings of 10 parameters (525,600
 * rows), on SQLite and PostgreSQL: the CSV export job end to end (queued, read day by day, formatted,
 * streamed through csv-stringify into stored 1 MB pieces) in rows/s and peak RSS growth, against a plain
 * loop writing the same rows to a file in the same run; the download of the stored file; the PDF at its
 * range limit; each heatmap of the year (median of 7 after 2 warm-up calls).
 */
export default async function exportBench(ctx: BenchContext): Promise<void> {
  await oneDialect(ctx, 'sqlite');
  await oneDialect(ctx, 'postgres');
}
