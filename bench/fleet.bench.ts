/**
 * Live fleets: N devices each POSTing one full three-phase reading (52 parameters) a second — not batches —
 * while N hub clients, one per device, watch them; N = 200, 1,000, 2,000 and 5,000 on SQLite and on
 * PostgreSQL (one instance, and two behind nginx). Prints ingest p50/p99 (POST round trip), end-to-end p50/p99 (reading stamped at send →
 * hub client), errors, and the server's CPU (share of one core) and RSS, sampled from /proc.
 *
 * The server is the built one (`apps/server/dist/server.js`, as a deployment runs it) in its own process;
 * the load generator (devices and hub clients) in another (this file, role `loadgen`): on a 2-core
 * machine the three share the cores. Targets (issue "Live fleets at scale"): at 2,000 devices on either
 * database end-to-end p99 ≤ 250 ms, 0 errors, server RSS ≤ 300 MB.
 *
 * The warm-up's first 10 s are the fleet arriving at once (every device's first reading within the same
 * second, after the hub clients connected): their ingest p50/p99 are printed beside the steady state's
 * (issue 34: p99 ≤ 700 ms at 2,000 devices and ≤ 2 s at 5,000; steady state at 5,000 p99 ≤ 250 ms, 0 failed).
 *
 * FLEET_DIALECTS picks the configurations (comma list, default all three): `sqlite`, `postgres` (one instance)
 * and `postgres-2` — two instances on the one PostgreSQL database behind nginx with the shipped site
 * (deploy/nginx-phasewatch.conf: round robin, no sticky sessions), every device's POSTs and hub client going
 * through nginx, so a reading ingested by one instance reaches the clients on the other over LISTEN/NOTIFY.
 * Its rows print each instance's CPU and RSS and nginx's CPU. Unless FLEET_SIZES is given, `postgres-2` runs
 * only at 2,000 and 5,000 devices (the sizes issue 34 asks for).
 *
 * FLEET_SIZES (comma list) and FLEET_SECONDS (measured seconds per run, default 30, after a 10 s warm-up)
 * narrow a run; FLEET_RUNS (default 1) repeats each configuration and size, printing each run's figures and
 * then their min–max; FLEET_SERVER_ENTRY runs another build's server (a comparison). A quarter of the devices
 * report a weak signal, so the arrival also raises 500 weak-signal alarms (stored, and sent to each owner's 100
 * hub connections); FLEET_WEAK_SIGNAL=0 keeps every device above the threshold.
 */
import { fileURLToPath } from 'node:url';
import { childPids } from '../e2e/support/nginx.js';
import type { BenchContext } from './run.js';
import {
  cpuOfTree,
  FLEET_CONFIGS,
  type FleetConfig,
  loadgenMain,
  percentile,
  postmasterPid,
  processUsage,
  type ToLoadgen,
  threadCpuS,
  withFleet,
  writerTotals,
} from './support/fleet.js';

const SIZES = (process.env.FLEET_SIZES ?? '200,1000,2000,5000').split(',').map(Number);
const SECONDS = Number(process.env.FLEET_SECONDS ?? 30);
const RUNS = Math.max(1, Number(process.env.FLEET_RUNS ?? 1));
const WARMUP_S = 10;
const CONFIGS = (process.env.FLEET_DIALECTS ?? FLEET_CONFIGS.join(',')).split(',') as FleetConfig[];
for (const c of CONFIGS) if (!FLEET_CONFIGS.includes(c)) throw new Error(`FLEET_DIALECTS: ${c} is none of ${FLEET_CONFIGS.join(', ')}`);
/** Two instances behind nginx: at the sizes issue 34 asks for, unless FLEET_SIZES names others. */
const TWO_INSTANCE_SIZES = [2000, 5000];

const NAMES: Record<FleetConfig, string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  'postgres-2': 'PostgreSQL ×2 (nginx)',
};

/** One run's headline figures, for the min–max over FLEET_RUNS. */
interface RunFigures {
  arrivalP99: number;
  arrivalFailed: number;
  steadyP99: number;
  e2eP99: number;
  failed: number;
  rssMaxMb: number;
}

const mb = (x: number) => `${x.toFixed(0)} MB`;
const pct = (x: number) => `${x.toFixed(0)} %`;

async function run(ctx: BenchContext, config: FleetConfig, n: number, k: number): Promise<RunFigures> {
  const label = `${NAMES[config]} ${n.toLocaleString('en')} devices${RUNS > 1 ? `, run ${k}/${RUNS}` : ''}`;
  const postgres = config !== 'sqlite';
  let figures: RunFigures | null = null;
  await withFleet(ctx.pgUrl, config, n, fileURLToPath(import.meta.url), async ({ servers, port, proxy, devices, loadgen }) => {
    loadgen.child.send({ cmd: 'run', port, devices, warmupS: WARMUP_S, seconds: SECONDS } satisfies ToLoadgen);
    const connected = await loadgen.next();
    if (connected.cmd !== 'connected') throw new Error('unexpected message');
    // Server samples over the measured window, per instance.
    const pids = servers.map((s) => s.child.pid as number);
    const nginxPids = proxy ? [proxy.child.pid as number, ...childPids(proxy.child.pid as number)] : [];
    const cpus = () => pids.map((pid) => processUsage(pid).cpuS);
    const mains = () => pids.map((pid) => threadCpuS(pid, pid));
    const nginxCpu = () => nginxPids.reduce((sum, pid) => sum + processUsage(pid).cpuS, 0);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const postmaster = postgres ? await postmasterPid(ctx.pgUrl) : 0;
    const pgCpuS = () => (postgres ? cpuOfTree(postmaster) : 0);
    // The arrival's CPU: what the server(s), their main threads and PostgreSQL spent in the first seconds.
    // Unlike the latencies, CPU seconds hardly change with what else the machine runs.
    const arrival0 = { t: performance.now(), cpu: cpus(), main: mains(), pg: pgCpuS(), nginx: nginxCpu() };
    type Sample = { cpu: number[]; main: number[]; pg: number; nginx: number };
    let arrivalCpu: (Sample & { seconds: number }) | null = null;
    let window: (Sample & { t0: number; loadgen0: number }) | null = null;
    const loadgenPid = loadgen.child.pid as number;
    const maxRss = pids.map(() => 0);
    const rssParts = pids.map(() => '');
    const sampler = setInterval(() => {
      if (!window) return;
      pids.forEach((pid, i) => {
        const u = processUsage(pid);
        if (u.rssMb > (maxRss[i] as number)) rssParts[i] = `anonymous ${mb(u.anonMb)}, files ${mb(u.fileMb)}`;
        maxRss[i] = Math.max(maxRss[i] as number, u.rssMb);
      });
    }, 1000);
    let writer0: Awaited<ReturnType<typeof writerTotals>>[] | null = null;
    const writers = () => Promise.all(servers.map((s) => writerTotals(s.port)));
    const warm = setTimeout(() => {
      const c = cpus();
      const m = mains();
      const pg = pgCpuS();
      const ng = nginxCpu();
      arrivalCpu = {
        cpu: c.map((x, i) => x - (arrival0.cpu[i] as number)),
        main: m.map((x, i) => x - (arrival0.main[i] as number)),
        pg: pg - arrival0.pg,
        nginx: ng - arrival0.nginx,
        seconds: (performance.now() - arrival0.t) / 1000,
      };
      window = { cpu: c, main: m, pg, nginx: ng, t0: performance.now(), loadgen0: processUsage(loadgenPid).cpuS };
      const asked = performance.now();
      void writers().then((w) => {
        if (process.env.FLEET_TIMELINE)
          process.stderr.write(`fleet timeline: /metrics answered in ${(performance.now() - asked).toFixed(0)} ms\n`);
        writer0 = w;
      });
    }, WARMUP_S * 1000);
    const done = await loadgen.next();
    clearInterval(sampler);
    clearTimeout(warm);
    if (done.cmd !== 'done') throw new Error('unexpected message');
    const w = window as (Sample & { t0: number; loadgen0: number }) | null;
    const elapsedS = w ? (performance.now() - w.t0) / 1000 : Number.NaN;
    const share = (now: number, then: number | undefined) => (w && then !== undefined ? ((now - then) / elapsedS) * 100 : Number.NaN);
    const cpu = cpus().map((x, i) => share(x, w?.cpu[i]));
    const mainCpu = mains().map((x, i) => share(x, w?.main[i]));
    const loadgenCpu = share(processUsage(loadgenPid).cpuS, w?.loadgen0);
    const pgCpu = share(pgCpuS(), w?.pg);
    const proxyCpu = share(nginxCpu(), w?.nginx);
    const ingest = done.ingestMs.sort((a, b) => a - b);
    const e2e = done.e2eMs.sort((a, b) => a - b);
    const missing = done.expected - done.received;
    const target = n === 2000 ? 'target ≤ 250 ms' : '';
    const arrival = done.arrivalMs.sort((a, b) => a - b);
    /** "main thread 60 %" for one instance; "instances 70 % + 65 %, main threads 50 % + 48 %" for two. */
    const perInstance = (total: number[], main: number[]) =>
      total.length === 1
        ? `main thread ${pct(main[0] as number)}`
        : `instances ${total.map(pct).join(' + ')}, main threads ${main.map(pct).join(' + ')}`;
    const others = (pgShare: number, nginxShare: number) =>
      `${postgres ? `, PostgreSQL ${pct(pgShare)}` : ''}${proxy ? `, nginx ${pct(nginxShare)}` : ''}`;
    // The fleet arriving at once (a restart, a network back): every device's first readings in the same
    // second, with the weak-signal alarms they raise (the alarm burst).
    ctx.report(
      `${label}: ingest p50 / p99, first ${WARMUP_S} s`,
      percentile(arrival, 50),
      'ms',
      `p99 ${percentile(arrival, 99).toFixed(1)} ms, max ${(arrival[arrival.length - 1] ?? Number.NaN).toFixed(0)} ms, ${arrival.length.toLocaleString('en')} POSTs, ${done.arrivalErrors} failed${n === 2000 ? '; target p99 ≤ 700 ms' : n === 5000 ? '; target p99 ≤ 2 s' : ''}`,
    );
    ctx.report(
      `${label}: ingest p50 / p99, steady state`,
      percentile(ingest, 50),
      'ms',
      `p99 ${percentile(ingest, 99).toFixed(1)} ms${n === 5000 ? '; target p99 ≤ 250 ms' : ''}`,
    );
    const w0 = writer0 as Awaited<ReturnType<typeof writerTotals>>[] | null;
    // The alarm burst: alarms the arrival raised (a fresh database: every one in the warm-up) and their
    // deliveries to the owners' hub connections, counted by the instances up to the end of the warm-up.
    if (w0)
      ctx.report(
        `${label}: alarms raised, first ${WARMUP_S} s`,
        sum(w0.map((x) => x.alarmsRaised)),
        '',
        `${sum(w0.map((x) => x.hubDeliveries)).toLocaleString('en')} hub deliveries sent${w0.length > 1 ? ` (per instance ${w0.map((x) => x.alarmsRaised).join(' / ')} raised)` : ''}`,
      );
    const a = arrivalCpu as (Sample & { seconds: number }) | null;
    if (a) {
      const s = (x: number) => (x / a.seconds) * 100;
      ctx.report(
        `${label}: server CPU, first ${WARMUP_S} s`,
        s(sum(a.cpu)),
        '% core',
        `${perInstance(a.cpu.map(s), a.main.map(s))}${others(s(a.pg), s(a.nginx))}`,
      );
    }
    ctx.report(`${label}: end-to-end p50`, percentile(e2e, 50), 'ms');
    ctx.report(`${label}: end-to-end p99`, percentile(e2e, 99), 'ms', target);
    const failed = done.errors + Math.max(0, missing);
    ctx.report(
      `${label}: errors`,
      failed,
      '',
      `${done.sent.toLocaleString('en')} POSTs (${(done.sent / SECONDS).toFixed(0)}/s), ${done.errors} failed, ${Math.max(0, missing)} not pushed; ${connected.clients} hub clients${n === 2000 || n === 5000 ? '; target 0' : ''}`,
    );
    ctx.report(
      `${label}: server CPU`,
      sum(cpu),
      '% core',
      `of 200 % on 2 cores, ${perInstance(cpu, mainCpu)}; load generator ${pct(loadgenCpu)}${others(pgCpu, proxyCpu)}`,
    );
    const rssMax = Math.max(...maxRss);
    ctx.report(
      `${label}: server RSS (max)`,
      rssMax,
      'MB',
      pids.length === 1
        ? `${rssParts[0]}${n === 2000 ? '; target ≤ 300 MB' : ''}`
        : `per instance ${maxRss.map(mb).join(' / ')} (sum ${mb(sum(maxRss))}); ${rssParts.map((p, i) => `${i + 1}: ${p}`).join('; ')}`,
    );
    if (w0) {
      const w1 = await writers();
      const commits = sum(w1.map((x, i) => x.commits - (w0[i]?.commits ?? 0)));
      const readings = w1.map((x, i) => x.readings - (w0[i]?.readings ?? 0));
      const seconds = sum(w1.map((x, i) => x.seconds - (w0[i]?.seconds ?? 0)));
      ctx.report(
        `${label}: writer transactions`,
        commits / SECONDS,
        '/s',
        `${(sum(readings) / Math.max(1, commits)).toFixed(1)} readings each, ${((seconds / Math.max(1, commits)) * 1000).toFixed(1)} ms each${w1.length > 1 ? `; readings stored per instance ${readings.map((r) => r.toLocaleString('en')).join(' / ')}` : ''}`,
      );
      ctx.report(
        `${label}: server heap used (end)`,
        Math.max(...w1.map((x) => x.heapMb)),
        'MB',
        w1.length === 1
          ? `heap total ${mb(w1[0]?.heapTotalMb ?? Number.NaN)}, external ${mb(w1[0]?.externalMb ?? Number.NaN)}`
          : `per instance ${w1.map((x) => mb(x.heapMb)).join(' / ')}; hub clients per instance ${w0.map((x) => x.hubConnections).join(' / ')} (each gets every reading of its device, whichever instance stored it)`,
      );
    }
    figures = {
      arrivalP99: percentile(arrival, 99),
      arrivalFailed: done.arrivalErrors,
      steadyP99: percentile(ingest, 99),
      e2eP99: percentile(e2e, 99),
      failed,
      rssMaxMb: rssMax,
    };
  });
  if (!figures) throw new Error('no figures');
  return figures;
}

/** FLEET_RUNS > 1: each headline figure's min–max over the runs. */
function reportRange(ctx: BenchContext, config: FleetConfig, n: number, runs: RunFigures[]): void {
  const label = `${NAMES[config]} ${n.toLocaleString('en')} devices, ${runs.length} runs`;
  const range = (name: string, unit: string, pick: (r: RunFigures) => number, digits = 0) => {
    const xs = runs.map(pick);
    ctx.report(
      `${label}: ${name} min–max`,
      Math.min(...xs),
      unit,
      `– ${Math.max(...xs).toFixed(digits)}${unit ? ` ${unit}` : ''}; runs ${xs.map((x) => x.toFixed(digits)).join(', ')}`,
    );
  };
  range(`ingest p99, first ${WARMUP_S} s`, 'ms', (r) => r.arrivalP99);
  range(`failed, first ${WARMUP_S} s`, '', (r) => r.arrivalFailed);
  range('ingest p99, steady state', 'ms', (r) => r.steadyP99);
  range('end-to-end p99', 'ms', (r) => r.e2eP99);
  range('errors', '', (r) => r.failed);
  range('server RSS (max)', 'MB', (r) => r.rssMaxMb);
}

export default async function fleetBench(ctx: BenchContext): Promise<void> {
  for (const config of CONFIGS) {
    const sizes =
      config === 'postgres-2' && process.env.FLEET_SIZES === undefined ? SIZES.filter((n) => TWO_INSTANCE_SIZES.includes(n)) : SIZES;
    for (const n of sizes) {
      const runs: RunFigures[] = [];
      for (let k = 1; k <= RUNS; k++) runs.push(await run(ctx, config, n, k));
      if (RUNS > 1) reportRange(ctx, config, n, runs);
    }
  }
}

if (process.env.FLEET_ROLE === 'loadgen') {
  loadgenMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
