import { openAsBlob, readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { mondayOf, zonedTimeToUtc } from '@phasewatch/shared';
import { ChunkSink } from '../apps/server/src/jobs/chunk-sink.js';
import { type ExportJobInput, type ExportPayload, runExportJob as runExportInProcess } from '../apps/server/src/modules/exports/index.js';
import type { BenchContext } from './run.js';
import { registerFleet } from './support/fleet.js';
import { percentile } from './support/hub-clients.js';
import { writeImportCsv } from './support/import-csv.js';
import { BENCH_PARAMS, benchApp, benchReadings } from './telemetry-fixtures.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
const DAY = 86_400_000;
const LOAD_BATCH = 5000;
/** Days of 1-minute readings behind the long CSV export (`ISOLATION_DAYS`, default a year; shorter for a quick run). */
const DAYS = Math.max(3, Number(process.env.ISOLATION_DAYS ?? 365));
const METERS = Math.max(1, Number(process.env.ISOLATION_METERS ?? 200));
const QUIET_S = 10;
/** Rounds of each job in the pool and on the main thread, taken in turns (`ISOLATION_ROUNDS`, default 2). */
const ROUNDS = Math.max(1, Number(process.env.ISOLATION_ROUNDS ?? 2));
/** Days of 1-minute rows in the import measured beside the others (`ISOLATION_IMPORT_DAYS`, default 90). */
const IMPORT_DAYS = Math.max(1, Number(process.env.ISOLATION_IMPORT_DAYS ?? 90));

/**
 * The other side of the server: 200 meters POSTing a reading a second each, and another user asking for
 * /api/devices and /api/health every 200 ms. Runs on its own thread (plain JavaScript, no tsx), so a busy
 * main thread of the server delays the answers it waits for, not the requests it sends; each latency is
 * from the request's own start to its answer.
 */
const LOADGEN = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, meters, token } = workerData;
let rec = null;
let timers = [];
// A request counts in the window it was sent in, however late its answer comes (a blocked server answers
// after the window; 'take' waits for those answers, up to two minutes).
async function timedFetch(kind, url, init) {
  const r = rec;
  const t0 = performance.now();
  if (r) r.pending++;
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (r) { if (res.ok) r[kind].push(performance.now() - t0); else r.errors++; }
  } catch { if (r) r.errors++; }
  if (r) { r.pending--; if (r.pending === 0 && r.onIdle) r.onIdle(); }
}
function start() {
  meters.forEach((m, i) => {
    const t = setTimeout(() => {
      const iv = setInterval(() => {
        const body = JSON.stringify({ readings: [{ ts: new Date().toISOString(), values: { vave1: 230 + (i % 10) / 10, pave1: 100 + i, eai1: 1000 + Date.now() / 3.6e9 } }] });
        void timedFetch('ingest', base + '/api/ingest', { method: 'POST', headers: { 'content-type': 'application/json', 'x-device-key': m.key }, body });
      }, 1000);
      timers.push(iv);
    }, Math.floor((i * 1000) / meters.length));
    timers.push(t);
  });
  timers.push(setInterval(() => {
    void timedFetch('devices', base + '/api/devices', { headers: { authorization: 'Bearer ' + token } });
    void timedFetch('health', base + '/api/health');
  }, 200));
}
parentPort.on('message', (m) => {
  if (m.cmd === 'start') start();
  else if (m.cmd === 'record') rec = { ingest: [], devices: [], health: [], errors: 0, pending: 0, onIdle: null };
  else if (m.cmd === 'take') {
    const r = rec;
    rec = null;
    const send = () => { r.onIdle = null; parentPort.postMessage({ ingest: r.ingest, devices: r.devices, health: r.health, errors: r.errors, unanswered: r.pending }); };
    if (r.pending === 0) send();
    else { r.onIdle = send; setTimeout(() => r.onIdle && send(), 120000); }
  }
  else if (m.cmd === 'stop') { for (const t of timers) { clearTimeout(t); clearInterval(t); } timers = []; parentPort.postMessage('stopped'); }
});
`;

interface Recorded {
  ingest: number[];
  devices: number[];
  health: number[];
  errors: number;
  /** Requests of the window still unanswered two minutes after it. */
  unanswered: number;
}

function rssMb(): { anon: number; all: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { anon: kb('RssAnon'), all: kb('VmRSS') };
}

async function oneDialect(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const to = zonedTimeToUtc(TZ, 2026, 1, 1);
  const from = to - DAYS * DAY;
  const count = Math.round((to - from) / MIN);
  const app = await benchApp(dialect, ctx.pgUrl);
  const { telemetry, analytics, jobs, storage } = app.ctx;
  try {
    // The exporting user's meter: DAYS of 1-minute readings of 10 parameters, as ingest writes them.
    for (let i = 0; i < count; i += LOAD_BATCH) {
      await telemetry.writer.write({
        deviceId: app.deviceId,
        tz: TZ,
        readings: benchReadings(from + i * MIN, Math.min(LOAD_BATCH, count - i), MIN),
      });
    }
    await telemetry.compactNow();
    await jobs.pool.warm();

    const port = Number(new URL(app.base).port);
    const fleet = await registerFleet(port, METERS);
    // The other user: an owner of two meters, who only looks (their devices page and the health check).
    const post = async (url: string, body: unknown, token?: string) => {
      const res = await fetch(`${app.base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const other = (await post('/api/register', { email: 'other@example.com', password: 'secret1', country: 'PL' })).token as string;
    for (const mac of ['06:00:00:00:00:01', '06:00:00:00:00:02']) await post('/api/devices', { name: mac, mac, typeCode: 13 }, other);
    const loadgen = new Worker(LOADGEN, { eval: true, workerData: { base: app.base, meters: fleet, token: other } });
    const ask = (cmd: string) =>
      new Promise<Recorded>((resolve) => {
        loadgen.once('message', resolve);
        loadgen.postMessage({ cmd });
      });
    loadgen.postMessage({ cmd: 'start' });
    // Warm-up: the fleet's arrival (every meter's first posts, its devices coming online) is over.
    await new Promise((r) => setTimeout(r, 15_000));

    const loop = monitorEventLoopDelay({ resolution: 10 });
    /** Runs `work` with the load recording: latencies, event-loop delay and peak RSS over its run. */
    const phase = async (name: string, work: () => Promise<unknown>) => {
      const rss0 = rssMb();
      // The loop's lateness every 10 ms, corrected for coordinated omission: a loop blocked for 2 s counts as
      // the 200 ticks it missed (2 s, 1.99 s, … late), not as one.
      const late: number[] = [];
      let expected = performance.now() + 10;
      const ticker = setInterval(() => {
        const now = performance.now();
        for (let d = now - expected; d > 0; d -= 10) late.push(d);
        if (now - expected <= 0) late.push(0);
        expected = now + 10;
      }, 10);
      const peak = { ...rss0 };
      const sampler = setInterval(() => {
        const r = rssMb();
        peak.anon = Math.max(peak.anon, r.anon);
        peak.all = Math.max(peak.all, r.all);
      }, 50);
      loop.reset();
      loop.enable();
      // A turn of the loop first, so the monitor's timer has a start to measure a blocked loop from.
      await new Promise((r) => setTimeout(r, 30));
      loadgen.postMessage({ cmd: 'record' });
      const t0 = performance.now();
      await work();
      const ms = performance.now() - t0;
      // One more turn of the loop: a job that never let it turn (synchronous reads) shows as one long delay.
      await new Promise((r) => setTimeout(r, 20));
      loop.disable();
      clearInterval(sampler);
      clearInterval(ticker);
      const rec = await ask('take');
      const p = (xs: number[], q: number) =>
        percentile(
          [...xs].sort((a, b) => a - b),
          q,
        );
      return {
        name,
        ms,
        ingest: { p50: p(rec.ingest, 50), p99: p(rec.ingest, 99), n: rec.ingest.length },
        other: {
          p50: p([...rec.devices, ...rec.health], 50),
          p99: p([...rec.devices, ...rec.health], 99),
          n: rec.devices.length + rec.health.length,
        },
        loopP99: loop.percentile(99) / 1e6,
        loopMax: loop.max / 1e6,
        lateP99: p(late, 99),
        lateMax: late.reduce((a, b) => Math.max(a, b), 0),
        errors: rec.errors + rec.unanswered,
        rssPeakMb: peak.all,
        rssGrowthMb: peak.anon - rss0.anon,
      };
    };
    type Phase = Awaited<ReturnType<typeof phase>>;
    const print = (p: Phase, quiet: Phase | null) => {
      const vs = (b: number | undefined) => (b === undefined ? '' : ` (quiet ${b.toFixed(0)})`);
      ctx.report(`${label} ${p.name}: time`, p.ms / 1000, 's');
      ctx.report(
        `${label} ${p.name}: other user p50 / p99`,
        p.other.p99,
        'ms p99',
        `p50 ${p.other.p50.toFixed(1)} ms, ${p.other.n} requests${vs(quiet?.other.p99)} (target p99 ≤ 100 ms)`,
      );
      ctx.report(
        `${label} ${p.name}: ingest p50 / p99`,
        p.ingest.p99,
        'ms p99',
        `p50 ${p.ingest.p50.toFixed(1)} ms, ${p.ingest.n} posts${vs(quiet?.ingest.p99)} (target p99 ≤ 250 ms)`,
      );
      ctx.report(
        `${label} ${p.name}: event-loop delay p99`,
        p.lateP99,
        'ms',
        `max ${p.lateMax.toFixed(0)} ms${vs(quiet?.lateP99)} (target p99 ≤ 50 ms); monitorEventLoopDelay p99 ${p.loopP99.toFixed(0)} ms, max ${p.loopMax.toFixed(0)} ms (it misses a loop blocked throughout); errors ${p.errors}`,
      );
      if (quiet)
        ctx.report(
          `${label} ${p.name}: peak RSS of the process`,
          p.rssPeakMb,
          'MB',
          `anonymous growth ${p.rssGrowthMb.toFixed(0)} MB during the job`,
        );
    };

    const quiet = await phase('no job', () => new Promise((r) => setTimeout(r, QUIET_S * 1000)));
    print(quiet, null);

    const payload = (format: 'csv' | 'pdf', days: number): ExportPayload => ({
      deviceId: app.deviceId,
      deviceName: 'bench',
      parameters: [...BENCH_PARAMS].sort(),
      allParameters: false,
      from: to - days * DAY,
      to,
      interval: 'raw',
      format,
      fileName: `bench-${format}`,
      language: 'en',
    });
    /** An export job's end (queued, claimed, run on a job thread). */
    const waitJob = async (started: Promise<{ id: string }>) => {
      const job = await started;
      for (;;) {
        const j = await analytics.exports.get(app.userId, job.id);
        if (j.status === 'failed') throw new Error(`${label}: export failed: ${j.error}`);
        if (j.status === 'done') return j;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    /** Through the pool, as POST /api/exports runs it (queued, claimed, run on a job thread). */
    const viaPool = (p: ExportPayload) =>
      waitJob(
        analytics.exports.create(app.userId, {
          deviceId: p.deviceId,
          parameters: p.parameters,
          allParameters: false,
          from: p.from,
          to: p.to,
          interval: p.interval,
          format: p.format,
          fileName: p.fileName,
        }),
      );
    /** Today's path before the pool: the same export code on the main thread, its pieces stored there. */
    let inProcessJobs = 0;
    const inProcess = async (p: ExportPayload) => {
      const id = `00000000-0000-4000-8000-${String(++inProcessJobs).padStart(12, '0')}`;
      await storage.db
        .insertInto('jobs')
        .values({ id, queue: 'bench', user_id: app.userId, payload: '{}', status: 'failed', created_at: Date.now() })
        .execute();
      const input: ExportJobInput = {
        userId: app.userId,
        attempt: 1,
        payload: p,
        extras: p.format === 'pdf' ? { location: null, costs: null } : null,
        createdAt: Date.now(),
      };
      return runExportInProcess(input, {
        storage,
        readings: telemetry.readings,
        readingsRepo: telemetry.readingsRepository,
        signal: new AbortController().signal,
        threadId: 0,
        progress: () => {},
        send: () => Promise.reject(new Error('an export sends no messages')),
        sink: () =>
          new ChunkSink(async (seq, data) => {
            await storage.db.insertInto('export_chunks').values({ job_id: id, attempt: 1, seq, data }).execute();
          }),
      });
    };

    for (const [what, p] of [
      [`CSV raw ${DAYS} days`, payload('csv', DAYS)],
      ['PDF raw 2 days', payload('pdf', 2)],
    ] as const) {
      // Taken in turns, ROUNDS times (the first round warms the page cache and the code for both); the last
      // round's figures are printed, the job times of every round beside them.
      const times: string[] = [];
      let pooled: Phase | null = null;
      let old: Phase | null = null;
      for (let round = 0; round < ROUNDS; round++) {
        pooled = await phase(`${what} in the pool`, () => viaPool(p));
        old = await phase(`${what} on the main thread (before)`, () => inProcess(p));
        times.push(`${(pooled.ms / 1000).toFixed(1)} s vs ${(old.ms / 1000).toFixed(1)} s`);
      }
      if (!pooled || !old) continue;
      print(pooled, quiet);
      print(old, quiet);
      ctx.report(
        `${label} ${what}: job time in the pool vs on the main thread`,
        pooled.ms / old.ms,
        '×',
        `rounds: ${times.join('; ')} (target ≤ 1.5×)`,
      );
    }

    // The jobs that came after the export (issues 30 and 31), through the pool only (they never ran on the
    // main thread): power-quality PDFs of the exporting meter and an import of IMPORT_DAYS of
    // 1-minute rows into a new device of the same user.
    // Four weeks' reports one after another (one alone is over in about a second: too few requests to tell a p99).
    // Only weeks the readings cover whole (a short ISOLATION_DAYS has fewer of them).
    const firstWhole = mondayOf(from + 7 * DAY, TZ);
    const weeks = [4, 3, 2, 1].map((k) => mondayOf(to - (k * 7 + 3) * DAY, TZ)).filter((w) => w >= firstWhole);
    const pq = await phase(`power-quality PDFs of ${weeks.length} weeks from ${weeks[0] ?? '—'} in the pool`, async () => {
      for (const week of weeks)
        await waitJob(
          analytics.exports.create(app.userId, { report: 'power-quality', deviceId: app.deviceId, format: 'pdf', week, fileName: 'pq' }),
        );
    });
    print(pq, quiet);
    const importDevice = (await post('/api/devices', { name: 'imported', mac: '07:00:00:00:00:01', typeCode: 20 }, app.token)).device as {
      id: number;
    };
    const csv = path.join(app.dataDir, 'import.csv');
    const bytes = await writeImportCsv(csv, from, IMPORT_DAYS * 1440);
    const imported = await phase(`import of ${IMPORT_DAYS * 1440} rows (${(bytes / 1e6).toFixed(1)} MB CSV) in the pool`, async () => {
      const form = new FormData();
      form.set('deviceId', String(importDevice.id));
      form.set('format', 'phasewatch');
      form.set('dryRun', 'false');
      form.set('file', await openAsBlob(csv), 'import.csv');
      const auth = { authorization: `Bearer ${app.token}` };
      const res = await fetch(`${app.base}/api/imports`, { method: 'POST', headers: auth, body: form });
      if (res.status !== 202) throw new Error(`${label}: import answered ${res.status}: ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      for (;;) {
        const job = (await (await fetch(`${app.base}/api/imports/${id}`, { headers: auth })).json()) as { status: string };
        if (job.status === 'failed') throw new Error(`${label}: import failed: ${JSON.stringify(job).slice(0, 300)}`);
        if (job.status === 'done') return job;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    print(imported, quiet);

    loadgen.postMessage({ cmd: 'stop' });
    await new Promise((r) => loadgen.once('message', r));
    await loadgen.terminate();
  } finally {
    await app.close();
  }
}

/**
 * Isolation of jobs from everyone else (issue 28), on SQLite and PostgreSQL: a long raw CSV export
 * (`ISOLATION_DAYS`, default a year of 1-minute readings of 10 parameters) and a 2-day raw PDF, each run
 * through the job pool and then, as before the pool, on the main thread, while `ISOLATION_METERS` (200)
 * meters post a reading a second each and another user asks for /api/devices and /api/health every
 * 200 ms. Prints the other user's and the meters' p50/p99, the server's event-loop delay
 * (perf_hooks.monitorEventLoopDelay; the app runs in this process), peak RSS, and the job's time against
 * the main-thread run, beside a quiet phase without a job. Then the jobs that came after it, through the
 * pool: a week's power-quality PDF and an import of `ISOLATION_IMPORT_DAYS` (90) of 1-minute rows.
 */
export default async function isolationBench(ctx: BenchContext): Promise<void> {
  // `ISOLATION_DIALECT=sqlite|postgres`: one of them (quick runs).
  const only = process.env.ISOLATION_DIALECT;
  if (only !== 'postgres') await oneDialect(ctx, 'sqlite');
  if (only !== 'sqlite') await oneDialect(ctx, 'postgres');
}
