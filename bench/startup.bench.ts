import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { BackfillProgress } from '../apps/simulator/src/backfill.js';
import { DEMO_FLEET, startEmbeddedFleet } from '../apps/simulator/src/embedded.js';
import { DAY_MS, MINUTE_MS } from '../apps/simulator/src/models/environment.js';
import { createModel } from '../apps/simulator/src/models/index.js';
import { HISTORY_READY_PREFIX } from '../apps/simulator/src/progress.js';
import { freePort } from '../scripts/testing/free-port.js';
import type { BenchContext } from './run.js';

/**
 * Start-up of the embedded default on a fresh data dir: the built server with DEMO_ACCOUNT=on and
 * SIMULATE=1 gives the demo account its simulated fleet and a year of 1-minute history. Measures the
 * seconds from spawning the server until that history is complete, and the backfill's readings/s, on
 * SQLite and on PostgreSQL.
 *
 * Completion is seen two ways, whichever comes first: the server prints `Simulated history ready: …`
 * (what `terminalProgress` prints), or, through the public API, every demo device's `lastSeen` has
 * reached the present (the fleet backfills each device in time order and only then goes live).
 *
 * Until the server starts the fleet itself, the bench runs the same `startEmbeddedFleet` from its own
 * process against the listening server and says so in the figure's note (one more core for the
 * simulator, so slightly optimistic).
 *
 * STARTUP_BENCH_DAYS shortens the history (default 365, as `npm start`); STARTUP_BENCH_TIMEOUT_S bounds
 * each run (default 1,200 s), after which the rate so far is reported instead.
 */
const DAYS = Number(process.env.STARTUP_BENCH_DAYS ?? 365);
const TIMEOUT_MS = Number(process.env.STARTUP_BENCH_TIMEOUT_S ?? 1200) * 1000;
/** With no demo device this long after listening, the server does not start the fleet (yet). */
const FLEET_GRACE_MS = 20_000;
const DEMO = { email: 'demo@phasewatch.dev', password: 'demo1234' };
const repoRoot = path.resolve(import.meta.dirname, '..');

/** Readings the demo fleet sends for `days` of history ending now (deliberate gaps excluded). */
function expectedReadings(days: number, end: number): number {
  const to = Math.floor(end / MINUTE_MS) * MINUTE_MS;
  let n = 0;
  for (const spec of DEMO_FLEET) {
    const m = createModel(spec.kind, { seed: spec.seed });
    for (let ts = to - days * DAY_MS; ts <= to; ts += MINUTE_MS) if (!m.isGap(ts)) n++;
  }
  return n;
}

async function createDatabase(adminUrl: string): Promise<string> {
  const name = `bench_startup_${process.pid}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

interface DeviceRow {
  lastSeen: string | null;
}

/** Whether every demo device has readings up to the last few minutes (null: the API is not there yet). */
async function historyComplete(baseUrl: string, token: { value: string }): Promise<{ devices: number; complete: boolean } | null> {
  try {
    if (!token.value) {
      const res = await fetch(`${baseUrl}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO),
      });
      if (!res.ok) return null;
      token.value = ((await res.json()) as { token: string }).token;
    }
    const res = await fetch(`${baseUrl}/api/devices`, { headers: { authorization: `Bearer ${token.value}` } });
    if (res.status === 401) token.value = '';
    if (!res.ok) return null;
    const list = (await res.json()) as DeviceRow[];
    const recent = Date.now() - 3 * MINUTE_MS;
    // lastSeen is UTC `YYYY-MM-DD HH:mm:ss`.
    const seen = list.map((d) => (d.lastSeen ? Date.parse(`${d.lastSeen.replace(' ', 'T')}Z`) : 0));
    return { devices: list.length, complete: list.length >= DEMO_FLEET.length && seen.every((t) => t >= recent) };
  } catch {
    return null;
  }
}

async function run(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-bench-startup-'));
  const databaseUrl = dialect === 'postgres' ? await createDatabase(ctx.pgUrl) : '';
  const baseUrl = `http://127.0.0.1:${port}`;
  let out = '';
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'apps/server/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DEMO_ACCOUNT: 'on',
      DEMO_EMAIL: DEMO.email,
      DEMO_PASSWORD: DEMO.password,
      SIMULATE: '1',
      SIMULATE_HISTORY_DAYS: String(DAYS),
      RCE_IMPORT: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const label = `${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`;
  try {
    let listening = 0;
    let sawDevice = 0;
    const token = { value: '' };
    for (;;) {
      const code = await Promise.race([exited, new Promise<'wait'>((r) => setTimeout(() => r('wait'), 2000))]);
      if (code !== 'wait') throw new Error(`server exited (${code}):\n${out.slice(-2000)}`);
      const elapsed = performance.now() - t0;
      if (!listening && out.includes('is running at')) listening = elapsed;
      const ready = out.split('\n').find((l) => l.startsWith(HISTORY_READY_PREFIX));
      const state = ready ? null : await historyComplete(baseUrl, token);
      if (state && state.devices > 0 && !sawDevice) sawDevice = elapsed;
      if (ready || state?.complete) {
        const seconds = elapsed / 1000;
        // The server's own count when it prints one; otherwise what the fleet sends for the history.
        const printed = ready?.match(/([\d,]+) readings in ([\d.]+) s/);
        const readings = printed ? Number(printed[1]?.replace(/,/g, '')) : expectedReadings(DAYS, Date.now());
        const backfillSeconds = printed ? Number(printed[2]) : (elapsed - (sawDevice || listening)) / 1000;
        ctx.report(
          `${label} start-up to ${DAYS} days of history (5 devices)`,
          seconds,
          's',
          ready ? 'server line' : 'seen through /api/devices',
        );
        ctx.report(
          `${label} backfill of the demo fleet`,
          readings / backfillSeconds,
          'readings/s',
          `${readings.toLocaleString('en-US')} readings`,
        );
        if (listening) ctx.report(`${label} time to listening`, listening / 1000, 's');
        return;
      }
      if (!sawDevice && listening && elapsed - listening > FLEET_GRACE_MS) {
        await outOfProcess(ctx, label, baseUrl, dataDir, listening);
        return;
      }
      if (elapsed > TIMEOUT_MS) {
        // The fleet prints a progress line per 10 % when not on a terminal; report the rate so far.
        const last = [...out.matchAll(/simulated history\s+(\d+) %\s+([\d,]+) readings, ([\d,]+)\/s/g)].at(-1);
        const rate = last ? Number(last[3]?.replace(/,/g, '')) : Number.NaN;
        ctx.report(
          `${label} backfill of the demo fleet (stopped at ${last?.[1] ?? '?'} %)`,
          rate,
          'readings/s',
          `timeout after ${TIMEOUT_MS / 1000} s`,
        );
        return;
      }
    }
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The fleet started by the bench itself against the running server (see the file comment). */
async function outOfProcess(ctx: BenchContext, label: string, baseUrl: string, dataDir: string, listeningMs: number): Promise<void> {
  let last: BackfillProgress | null = null;
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const t0 = performance.now();
  const fleet = startEmbeddedFleet({
    baseUrl,
    ...DEMO,
    dataDir: path.join(dataDir, 'bench-fleet'),
    historyDays: DAYS,
    liveIntervalMs: 0,
    signal,
    onProgress: (e) => {
      if (e.type === 'backfill') last = e.progress;
    },
  });
  const note = 'fleet run by the bench, not the server';
  try {
    const summary = await fleet.backfillDone;
    const seconds = (performance.now() - t0) / 1000;
    ctx.report(`${label} start-up to ${DAYS} days of history (5 devices)`, listeningMs / 1000 + seconds, 's', note);
    ctx.report(
      `${label} backfill of the demo fleet`,
      summary.readingsPerSecond,
      'readings/s',
      `${summary.sent.toLocaleString('en-US')} readings; ${note}`,
    );
  } catch (err) {
    if (!signal.aborted) throw err;
    const p = last as BackfillProgress | null;
    const pct = p && p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;
    ctx.report(
      `${label} backfill of the demo fleet (stopped at ${pct} %)`,
      p?.readingsPerSecond ?? Number.NaN,
      'readings/s',
      `timeout; ${note}`,
    );
  } finally {
    await fleet.stop();
  }
}

export default async function startupBench(ctx: BenchContext): Promise<void> {
  await run(ctx, 'sqlite');
  await run(ctx, 'postgres');
}
