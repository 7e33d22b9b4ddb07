import { openAsBlob, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportJob } from '@phasewatch/shared';
import type { BenchContext } from './run.js';
import { writeImportCsv } from './support/import-csv.js';
import { benchApp, benchReadings } from './telemetry-fixtures.js';

/*
 * History import (issue 31): a year of 1-minute rows (525,600) of a single-phase meter's ten parameters in
 * Phasewatch's CSV layout, uploaded to POST /api/imports and read by the import job into a fresh device,
 * against the batch ingest rate (POST /api/ingest, 5,000 readings a request, one device) of the same rows
 * measured in the same run. Memory: the peak growth of the process's resident anonymous memory while the
 * import job runs, from its 202 on (the file is 41 MB; the upload is measured apart: the client's fetch runs in this
 * process too).
 * IMPORT_BENCH_ROWS changes the file's rows, IMPORT_BENCH_BASELINE the baseline's readings,
 * IMPORT_BENCH_DIALECTS (sqlite,postgres) the dialects.
 */
const MIN = 60_000;
const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 525_600);
const BASELINE = Number(process.env.IMPORT_BENCH_BASELINE ?? 100_000);
const DIALECTS = (process.env.IMPORT_BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const BATCH = 5000;

function rssAnon(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/^RssAnon:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

async function oneDialect(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const b = await benchApp(dialect, ctx.pgUrl);
  try {
    const auth = { authorization: `Bearer ${b.token}` };
    // Baseline: batch ingest of the same kind of rows into the fixture's device.
    const base0 = Date.now() - 400 * 86_400_000;
    const baseline = benchReadings(base0, BASELINE, MIN);
    const bodies: string[] = [];
    for (let i = 0; i < baseline.length; i += BATCH)
      bodies.push(
        JSON.stringify({ readings: baseline.slice(i, i + BATCH).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) }),
      );
    const t0 = performance.now();
    for (const body of bodies) {
      const res = await fetch(`${b.base}/api/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-key': b.ingestKey },
        body,
      });
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
    }
    const ingestMs = performance.now() - t0;
    const ingestRate = (BASELINE / ingestMs) * 1000;
    ctx.report(
      `${dialect}: batch ingest (POST /api/ingest, 5,000 a request)`,
      ingestRate,
      'rows/s',
      `${BASELINE} readings in ${(ingestMs / 1000).toFixed(1)} s`,
    );

    const dev = await fetch(`${b.base}/api/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ name: 'imported', mac: '00:11:22:33:44:66', typeCode: 20 }),
    });
    const { device } = (await dev.json()) as { device: { id: number } };
    const file = path.join(b.dataDir, 'year.csv');
    const start = Math.floor((Date.now() - 370 * 86_400_000) / 3_600_000) * 3_600_000;
    const bytes = await writeImportCsv(file, start, ROWS);

    global.gc?.();
    const before = rssAnon();
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, rssAnon());
    }, 50);
    const t1 = performance.now();
    const form = new FormData();
    form.set('deviceId', String(device.id));
    form.set('format', 'phasewatch');
    form.set('dryRun', 'false');
    form.set('file', await openAsBlob(file), 'year.csv');
    const res = await fetch(`${b.base}/api/imports`, { method: 'POST', headers: auth, body: form });
    if (res.status !== 202) throw new Error(`import answered ${res.status}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    const uploadMs = performance.now() - t1;
    // The upload is this process's own fetch too: the job's memory is measured from here on.
    const uploadPeak = peak;
    global.gc?.();
    const jobBefore = rssAnon();
    peak = jobBefore;
    let job: ImportJob;
    for (;;) {
      job = (await (await fetch(`${b.base}/api/imports/${id}`, { headers: auth })).json()) as ImportJob;
      if (job.status === 'done' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const importMs = performance.now() - t1;
    clearInterval(timer);
    if (job.status !== 'done' || job.imported !== ROWS) throw new Error(`import ended ${job.status}: ${JSON.stringify(job).slice(0, 500)}`);
    const rate = (ROWS / importMs) * 1000;
    ctx.report(
      `${dialect}: import of ${ROWS} 1-minute rows (${(bytes / 1e6).toFixed(0)} MB CSV)`,
      importMs / 1000,
      's',
      `upload ${(uploadMs / 1000).toFixed(1)} s`,
    );
    ctx.report(`${dialect}: import rate`, rate, 'rows/s', `${((rate / ingestRate) * 100).toFixed(0)} % of batch ingest (target ≥ 50 %)`);
    ctx.report(
      `${dialect}: import job's peak memory growth (RssAnon)`,
      (peak - jobBefore) / 1024 / 1024,
      'MB',
      `file ${(bytes / 1024 / 1024).toFixed(0)} MB; upload (client and server in this process) +${((uploadPeak - before) / 1024 / 1024).toFixed(0)} MB`,
    );
  } finally {
    await b.close();
  }
}

export default async function importBench(ctx: BenchContext): Promise<void> {
  for (const d of DIALECTS) await oneDialect(ctx, d);
}
