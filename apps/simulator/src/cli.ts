#!/usr/bin/env node
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type FleetDeviceSpec, startFleet } from './fleet.js';
import type { SimulatedKind } from './models/index.js';
import { terminalProgress } from './progress.js';

const USAGE = `Usage: phasewatch-sim --url <server> --email <e> --password <p> [options]

  --devices <n>          devices to simulate, cycling household, solar, thermostat,
                         single-phase, workshop (default 5)
  --backfill-days <d>    days of 1-minute history for new devices (default 0)
  --live                 keep sending live readings after the backfill
  --interval-ms <ms>     live interval (default 5000)
  --mqtt <url>           send live readings over MQTT instead of HTTP
  --seed <n>             base seed (default 1); same seed, same data
  --data-dir <dir>       where the state file (devices, ingest keys) lives (default ./data/simulator)
  --batch <n>            readings per request, ≤ 5000 (default 5000)
  --concurrency <n>      requests in flight during backfill (default 3)
`;

const KINDS: readonly SimulatedKind[] = ['household', 'solar', 'thermostat', 'single-phase', 'workshop'];

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      devices: { type: 'string' },
      'backfill-days': { type: 'string' },
      live: { type: 'boolean', default: false },
      'interval-ms': { type: 'string' },
      mqtt: { type: 'string' },
      seed: { type: 'string' },
      'data-dir': { type: 'string' },
      batch: { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.url || !values.email || !values.password) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const count = positiveInt('devices', values.devices, 5);
  const seed = positiveInt('seed', values.seed, 1);
  const devices: FleetDeviceSpec[] = Array.from({ length: count }, (_, i) => {
    const kind = KINDS[i % KINDS.length] ?? 'household';
    return { slot: `sim-${i + 1}`, kind, name: `Simulated ${kind} ${i + 1}`, seed: seed * 1000 + i };
  });
  const controller = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => controller.abort());
  const progress = terminalProgress(process.stderr);
  let failed = false;
  const fleet = startFleet({
    baseUrl: values.url,
    email: values.email,
    password: values.password,
    stateFile: path.resolve(values['data-dir'] ?? 'data/simulator', `state-${seed}.json`),
    devices,
    historyDays: positiveInt('backfill-days', values['backfill-days'], 0),
    liveIntervalMs: values.live ? positiveInt('interval-ms', values['interval-ms'], 5000) : 0,
    ...(values.mqtt ? { mqttUrl: values.mqtt } : {}),
    batchSize: positiveInt('batch', values.batch, 5000),
    concurrency: positiveInt('concurrency', values.concurrency, 3),
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'error' && e.during !== 'live') failed = true;
      progress(e);
    },
  });
  try {
    await fleet.backfillDone;
  } catch {
    await fleet.stop();
    return controller.signal.aborted ? 0 : 1;
  }
  if (values.live) {
    process.stderr.write(`Sending live readings of ${count} devices; Ctrl+C stops.\n`);
    await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  await fleet.stop();
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
