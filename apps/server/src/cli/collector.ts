import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { collectorSourceSchema, DEFAULT_POLL_SECONDS, FALLBACK_TIMEZONE, isValidTimezone } from '@phasewatch/shared';
import { z } from 'zod';
import { CollectorError } from '../collectors/collector-error.js';
import type { CollectedReading } from '../collectors/family.js';
import { DEFAULT_COLLECTOR_NETWORKS, NetworkGuard } from '../collectors/network-guard.js';
import { CollectorRunner, type RunnerDevice, type RunnerStatus } from '../collectors/runner.js';

/*
 * `npm run collector -- --server URL --config FILE`: the server's collectors as a small process beside the
 * meters, for a Phasewatch server that cannot reach them (in the cloud). It reads each device as the
 * server would and sends its readings through the public ingest API with the device's ingest key. The
 * last reading of each device is kept in a state file (`FILE.state.json`) so counters and the balanced
 * energy continue across restarts.
 */

const deviceSchema = z
  .strictObject({
    name: z.string().max(100).optional(),
    kind: z.enum(['fox-energy', 'shelly-gen2', 'shelly-gen1', 'tasmota']),
    address: z.string(),
    key: z.string().max(128).optional(),
    pollSeconds: z.number().int().min(1).max(3600).optional(),
    /** The key `POST /api/devices` answered for this device. */
    ingestKey: z.string().min(1),
  })
  .superRefine((d, ctx) => {
    const source = collectorSourceSchema.safeParse({ kind: d.kind, address: d.address, key: d.key, pollSeconds: d.pollSeconds });
    if (!source.success) for (const i of source.error.issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
  });

export const collectorConfigSchema = z.strictObject({
  devices: z.array(deviceSchema).min(1),
  /** Broker Tasmota devices publish to. */
  mqttUrl: z.string().optional(),
  /** Timezone of Tasmota devices' local `Time` (default Europe/Warsaw). */
  timezone: z.string().refine(isValidTimezone, { message: 'must be an IANA timezone' }).optional(),
});
export type CollectorConfig = z.infer<typeof collectorConfigSchema>;

/** What a running collector process exposes (tests stop it). */
export interface CollectorProcess {
  runner: CollectorRunner;
  stop(): Promise<void>;
}

/** Sends readings to `server`'s ingest API with the device's key; a refusal names the server's reason. */
async function send(server: string, ingestKey: string, readings: CollectedReading[]): Promise<void> {
  for (let i = 0; i < readings.length; i += 5000) {
    const body = { readings: readings.slice(i, i + 5000).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) };
    let res: Response;
    try {
      res = await fetch(new URL('/api/ingest', server), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-key': ingestKey },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new CollectorError('unreachable', `the server ${server} could not be reached (${(err as Error).message})`);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let message = text.slice(0, 300);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {}
      throw new CollectorError(res.status === 400 ? 'badValues' : 'httpStatus', `the server answered ${res.status}: ${message}`);
    }
  }
}

/** Starts reading every device of `config`; logs each device's state changes through `log`. */
export function startCollector(opts: {
  server: string;
  config: CollectorConfig;
  statePath?: string;
  networks?: readonly string[];
  log?: (line: string) => void;
}): CollectorProcess {
  const log = opts.log ?? ((line: string) => console.log(line));
  const state: Record<string, CollectedReading> = {};
  if (opts.statePath) {
    try {
      Object.assign(state, JSON.parse(readFileSync(opts.statePath, 'utf8')) as Record<string, CollectedReading>);
    } catch {}
  }
  const devices = opts.config.devices.map<RunnerDevice & { ingestKey: string; label: string }>((d, i) => ({
    id: i + 1,
    kind: d.kind,
    address: d.address,
    key: d.key,
    pollSeconds: d.pollSeconds ?? (d.kind === 'tasmota' ? 300 : DEFAULT_POLL_SECONDS),
    timezone: opts.config.timezone ?? FALLBACK_TIMEZONE,
    last: state[d.ingestKey] ?? null,
    ingestKey: d.ingestKey,
    label: d.name ?? d.address,
  }));
  const byId = new Map(devices.map((d) => [d.id, d]));
  const describe = (s: RunnerStatus) => (s.state === 'retrying' || s.lastError ? `${s.state}: ${s.lastError}` : s.state);
  const runner = new CollectorRunner({
    guard: new NetworkGuard(opts.networks ?? DEFAULT_COLLECTOR_NETWORKS),
    ...(opts.config.mqttUrl ? { mqttUrl: opts.config.mqttUrl } : {}),
    sink: {
      deliver: async (device, readings) => {
        const d = byId.get(device.id);
        if (!d) return;
        await send(opts.server, d.ingestKey, readings);
        state[d.ingestKey] = readings[readings.length - 1] as CollectedReading;
      },
      changed: (device, status) => log(`${new Date().toISOString()} ${byId.get(device.id)?.label}: ${describe(status)}`),
    },
  });
  const save = () => {
    if (!opts.statePath) return;
    const tmp = `${opts.statePath}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, opts.statePath);
  };
  // Also what keeps the process alive: the runner's timers do not (they must not hold a server open).
  const saver = setInterval(save, 30_000);
  for (const d of devices) runner.add(d, { spread: devices.length > 1 });
  log(`${new Date().toISOString()} reading ${devices.length} device(s), sending to ${opts.server}`);
  return {
    runner,
    async stop() {
      clearInterval(saver);
      await runner.stop();
      save();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { server: { type: 'string' }, config: { type: 'string' }, state: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || !values.server || !values.config) {
    console.log('Usage: npm run collector -- --server https://phasewatch.example.com --config collector.json [--state file]');
    process.exit(values.help ? 0 : 2);
  }
  const parsed = collectorConfigSchema.safeParse(JSON.parse(readFileSync(values.config, 'utf8')));
  if (!parsed.success) {
    for (const i of parsed.error.issues) console.error(`${values.config}: ${i.path.join('.')}: ${i.message}`);
    process.exit(2);
  }
  const networks = process.env.COLLECTOR_NETWORKS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const proc = startCollector({
    server: values.server,
    config: parsed.data,
    statePath: values.state ?? `${path.resolve(values.config)}.state.json`,
    ...(networks?.length ? { networks } : {}),
  });
  const shutdown = () => {
    proc.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) void main();
