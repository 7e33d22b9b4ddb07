/**
 * Live fleets: N devices each POSTing one full three-phase reading (52 parameters) a second — not batches —
 * while N hub clients, one per device, watch them; N = 200, 1,000, 2,000 and 5,000 on SQLite and on
 * PostgreSQL. Prints ingest p50/p99 (POST round trip), end-to-end p50/p99 (reading stamped at send →
 * hub client), errors, and the server's CPU (share of one core) and RSS, sampled from /proc.
 *
 * The server is the built one (`apps/server/dist/server.js`, as a deployment runs it) in its own process;
 * the load generator (devices and hub clients) in another (this file, role `loadgen`): on a 2-core
 * machine the three share the cores. Targets (issue "Live fleets at scale"): at 2,000 devices on either
 * database end-to-end p99 ≤ 250 ms, 0 errors, server RSS ≤ 300 MB.
 *
 * The warm-up's first 10 s are the fleet arriving at once (every device's first reading within the same
 * second, after the hub clients connected): their ingest p50/p99 are printed beside the steady state's
 * (target at 2,000 devices: p99 ≤ 1 s).
 *
 * FLEET_SIZES (comma list) and FLEET_SECONDS (measured seconds per run, default 30, after a 10 s warm-up)
 * and FLEET_DIALECTS narrow a run; FLEET_SERVER_ENTRY runs another build's server (a comparison). A quarter of
 * the devices report a weak signal, so the arrival also raises 500 weak-signal alarms (stored, and sent to
 * each owner's 100 hub connections); FLEET_WEAK_SIGNAL=0 keeps every device above the threshold.
 */
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './run.js';
import {
  cpuOfCommand,
  loadgenMain,
  percentile,
  processUsage,
  type ToLoadgen,
  threadCpuS,
  withFleet,
  writerTotals,
} from './support/fleet.js';

const SIZES = (process.env.FLEET_SIZES ?? '200,1000,2000,5000').split(',').map(Number);
const SECONDS = Number(process.env.FLEET_SECONDS ?? 30);
const WARMUP_S = 10;
const DIALECTS = (process.env.FLEET_DIALECTS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];

async function run(ctx: BenchContext, dialect: 'sqlite' | 'postgres', n: number): Promise<void> {
  const label = `${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${n.toLocaleString('en')} devices`;
  await withFleet(ctx.pgUrl, dialect, n, fileURLToPath(import.meta.url), async ({ server, devices, loadgen }) => {
    loadgen.child.send({ cmd: 'run', port: server.port, devices, warmupS: WARMUP_S, seconds: SECONDS } satisfies ToLoadgen);
    const connected = await loadgen.next();
    if (connected.cmd !== 'connected') throw new Error('unexpected message');
    // Server samples over the measured window.
    const pid = server.child.pid as number;
    // The arrival's CPU: what the server, its main thread and PostgreSQL spent in the first seconds. Unlike
    // the latencies, CPU seconds hardly change with what else the machine runs.
    const arrival0 = { t: performance.now(), cpu: processUsage(pid).cpuS, main: threadCpuS(pid, pid), pg: cpuOfCommand('postgres') };
    let arrivalCpu: { cpu: number; main: number; pg: number; seconds: number } | null = null;
    let window: { cpu0: number; main0: number; t0: number; loadgen0: number; pg0: number } | null = null;
    const loadgenPid = loadgen.child.pid as number;
    let maxRss = 0;
    let rssParts = '';
    const sampler = setInterval(() => {
      const u = processUsage(pid);
      if (!window) return;
      if (u.rssMb > maxRss) rssParts = `anonymous ${u.anonMb.toFixed(0)} MB, files ${u.fileMb.toFixed(0)} MB`;
      maxRss = Math.max(maxRss, u.rssMb);
    }, 1000);
    let writer0: Awaited<ReturnType<typeof writerTotals>> | null = null;
    const warm = setTimeout(() => {
      arrivalCpu = {
        cpu: processUsage(pid).cpuS - arrival0.cpu,
        main: threadCpuS(pid, pid) - arrival0.main,
        pg: cpuOfCommand('postgres') - arrival0.pg,
        seconds: (performance.now() - arrival0.t) / 1000,
      };
      window = {
        main0: threadCpuS(pid, pid),
        cpu0: processUsage(pid).cpuS,
        t0: performance.now(),
        loadgen0: processUsage(loadgenPid).cpuS,
        pg0: cpuOfCommand('postgres'),
      };
      const asked = performance.now();
      void writerTotals(server.port).then((w) => {
        if (process.env.FLEET_TIMELINE)
          process.stderr.write(`fleet timeline: /metrics answered in ${(performance.now() - asked).toFixed(0)} ms\n`);
        writer0 = w;
      });
    }, WARMUP_S * 1000);
    const done = await loadgen.next();
    clearInterval(sampler);
    clearTimeout(warm);
    if (done.cmd !== 'done') throw new Error('unexpected message');
    const w = window as { cpu0: number; main0: number; t0: number; loadgen0: number; pg0: number } | null;
    const elapsedS = w ? (performance.now() - w.t0) / 1000 : Number.NaN;
    const cpu = w ? ((processUsage(pid).cpuS - w.cpu0) / elapsedS) * 100 : Number.NaN;
    const mainCpu = w ? ((threadCpuS(pid, pid) - (w as { main0: number }).main0) / elapsedS) * 100 : Number.NaN;
    const loadgenCpu = w ? ((processUsage(loadgenPid).cpuS - w.loadgen0) / elapsedS) * 100 : Number.NaN;
    const pgCpu = w ? ((cpuOfCommand('postgres') - w.pg0) / elapsedS) * 100 : Number.NaN;
    const ingest = done.ingestMs.sort((a, b) => a - b);
    const e2e = done.e2eMs.sort((a, b) => a - b);
    const missing = done.expected - done.received;
    const target = n === 2000 ? 'target ≤ 250 ms' : '';
    const arrival = done.arrivalMs.sort((a, b) => a - b);
    // The fleet arriving at once (a restart, a network back): every device's first readings in the same second.
    ctx.report(
      `${label}: ingest p50 / p99, first ${WARMUP_S} s`,
      percentile(arrival, 50),
      'ms',
      `p99 ${percentile(arrival, 99).toFixed(1)} ms, max ${(arrival[arrival.length - 1] ?? Number.NaN).toFixed(0)} ms, ${arrival.length.toLocaleString('en')} POSTs, ${done.arrivalErrors} failed${n === 2000 ? '; target p99 ≤ 1 s' : ''}`,
    );
    ctx.report(`${label}: ingest p50 / p99, steady state`, percentile(ingest, 50), 'ms', `p99 ${percentile(ingest, 99).toFixed(1)} ms`);
    const a = arrivalCpu as { cpu: number; main: number; pg: number; seconds: number } | null;
    if (a) {
      ctx.report(
        `${label}: server CPU, first ${WARMUP_S} s`,
        (a.cpu / a.seconds) * 100,
        '% core',
        `main thread ${((a.main / a.seconds) * 100).toFixed(0)} %${dialect === 'postgres' ? `, PostgreSQL ${((a.pg / a.seconds) * 100).toFixed(0)} %` : ''}`,
      );
    }
    ctx.report(`${label}: end-to-end p50`, percentile(e2e, 50), 'ms');
    ctx.report(`${label}: end-to-end p99`, percentile(e2e, 99), 'ms', target);
    ctx.report(
      `${label}: errors`,
      done.errors + Math.max(0, missing),
      '',
      `${done.sent.toLocaleString('en')} POSTs (${(done.sent / SECONDS).toFixed(0)}/s), ${done.errors} failed, ${Math.max(0, missing)} not pushed; ${connected.clients} hub clients${n === 2000 ? '; target 0' : ''}`,
    );
    ctx.report(
      `${label}: server CPU`,
      cpu,
      '% core',
      `of 200 % on 2 cores, main thread ${mainCpu.toFixed(0)} %; load generator ${loadgenCpu.toFixed(0)} %${dialect === 'postgres' ? `, PostgreSQL ${pgCpu.toFixed(0)} %` : ''}`,
    );
    ctx.report(`${label}: server RSS (max)`, maxRss, 'MB', `${rssParts}${n === 2000 ? '; target ≤ 300 MB' : ''}`);
    const w0 = writer0 as Awaited<ReturnType<typeof writerTotals>> | null;
    if (w0) {
      const w1 = await writerTotals(server.port);
      const commits = w1.commits - w0.commits;
      ctx.report(
        `${label}: writer transactions`,
        commits / SECONDS,
        '/s',
        `${((w1.readings - w0.readings) / Math.max(1, commits)).toFixed(1)} readings each, ${(((w1.seconds - w0.seconds) / Math.max(1, commits)) * 1000).toFixed(1)} ms each`,
      );
      ctx.report(
        `${label}: server heap used (end)`,
        w1.heapMb,
        'MB',
        `heap total ${w1.heapTotalMb.toFixed(0)} MB, external ${w1.externalMb.toFixed(0)} MB`,
      );
    }
  });
}

export default async function fleetBench(ctx: BenchContext): Promise<void> {
  for (const dialect of DIALECTS) for (const n of SIZES) await run(ctx, dialect, n);
}

if (process.env.FLEET_ROLE === 'loadgen') {
  loadgenMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
