/**
 * Soak (`npm run bench -- soak`): 1,000 devices each POSTing one three-phase reading a second, with 1,000 hub clients watching, for
 * 10 minutes (FLEET_SOAK_MINUTES) on SQLite and PostgreSQL (FLEET_DIALECTS). The server's RSS is sampled
 * every 5 s; its slope (least squares over the run after the first minute) says whether memory grows with
 * time. Target: flat, no error.
 */
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './run.js';
import { loadgenMain, percentile, processUsage, type ToLoadgen, withFleet } from './support/fleet.js';

const DEVICES = 1000;
const MINUTES = Number(process.env.FLEET_SOAK_MINUTES ?? 10);
const DIALECTS = (process.env.FLEET_DIALECTS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  const num = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function soak(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const label = `${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} soak, ${DEVICES.toLocaleString('en')} devices × ${MINUTES} min`;
  await withFleet(ctx.pgUrl, dialect, DEVICES, fileURLToPath(import.meta.url), async ({ server, devices, loadgen }) => {
    loadgen.child.send({ cmd: 'run', port: server.port, devices, warmupS: 5, seconds: MINUTES * 60 } satisfies ToLoadgen);
    if ((await loadgen.next()).cmd !== 'connected') throw new Error('unexpected message');
    const pid = server.child.pid as number;
    const t0 = performance.now();
    const samples: [number, number][] = [];
    const anon: [number, number][] = [];
    const sampler = setInterval(() => {
      const u = processUsage(pid);
      const m = (performance.now() - t0) / 60_000;
      samples.push([m, u.rssMb]);
      anon.push([m, u.anonMb]);
    }, 5000);
    const done = await loadgen.next();
    clearInterval(sampler);
    if (done.cmd !== 'done') throw new Error('unexpected message');
    const steady = samples.filter(([m]) => m >= 1);
    const steadyAnon = anon.filter(([m]) => m >= 1);
    const e2e = done.e2eMs.sort((a, b) => a - b);
    const missing = Math.max(0, done.expected - done.received);
    ctx.report(
      `${label}: RSS slope`,
      slope(steady),
      'MB/min',
      `from ${steady[0]?.[1].toFixed(0)} MB to ${steady[steady.length - 1]?.[1].toFixed(0)} MB (target: flat)`,
    );
    // File pages (SQLite's memory-mapped database, shared libraries) are page cache the kernel takes back;
    // anonymous memory is the process's own.
    ctx.report(
      `${label}: anonymous RSS slope`,
      slope(steadyAnon),
      'MB/min',
      `from ${steadyAnon[0]?.[1].toFixed(0)} MB to ${steadyAnon[steadyAnon.length - 1]?.[1].toFixed(0)} MB`,
    );
    ctx.report(`${label}: RSS max`, Math.max(...samples.map((s) => s[1])), 'MB');
    ctx.report(
      `${label}: errors`,
      done.errors + missing,
      '',
      `${done.sent.toLocaleString('en')} POSTs, ${done.errors} failed, ${missing} not pushed`,
    );
    ctx.report(`${label}: end-to-end p99`, percentile(e2e, 99), 'ms', `p50 ${percentile(e2e, 50).toFixed(1)} ms`);
  });
}

export default async function fleetSoakBench(ctx: BenchContext): Promise<void> {
  for (const dialect of DIALECTS) await soak(ctx, dialect);
}

if (process.env.FLEET_ROLE === 'loadgen') {
  loadgenMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
