import { BoundedMap } from '@phasewatch/shared';
import { CollectorError } from './collector-error.js';
import { type CollectedReading, type DeviceInfo, objectOf, type PollContext, type PolledFamily, put } from './family.js';

/*
 * Shelly Gen2+ energy meters (Pro 3EM, 3EM-63: component `em`; Pro EM and a Pro 3EM in its monophase
 * profile: `em1`) over HTTP RPC: `GET /rpc/EM.GetStatus?id=0` (V, A, W, power factor, Hz per phase a/b/c)
 * and `GET /rpc/EMData.GetStatus?id=0` (energy counters in Wh). After a gap the minutes missed are
 * filled from the device's own store, `EMData.GetData` (1-minute records, about 60 days on a Pro 3EM).
 * Authentication, when enabled, is HTTP digest (SHA-256) as user `admin`.
 * Sources: Shelly Gen2 API docs (EM, EMData, Shelly.GetDeviceInfo), tj-smith47/shelly-go.
 */

/** Wh as the device counts, per kWh. */
const WH = 1000;
const PHASES = [
  ['a', 1],
  ['b', 2],
  ['c', 3],
] as const;

/** Devices known to have no `em` component (answered per base address, so EM1 devices are not asked twice a poll). */
const usesEm1 = new BoundedMap<string, boolean>(10_000);

/** A gap longer than this (and three poll intervals) is filled from the device's history. */
const GAP_MS = 90_000;
/** History filled per gap at most (a longer outage keeps its oldest part as a gap). */
export const MAX_FILL_MS = 7 * 86_400_000;
/** History asked per request: 6 hours of minutes (~200 KB). */
const FILL_CHUNK_S = 6 * 3600;

/** What `GET /shelly` says: Gen2+ devices carry `gen`, Gen1 devices `type`. */
export function shellyIdentity(json: unknown): DeviceInfo {
  const o = objectOf(json, 'shelly');
  const mac = typeof o.mac === 'string' ? o.mac : undefined;
  const withMac = (info: DeviceInfo): DeviceInfo => (mac ? { ...info, mac } : info);
  if (typeof o.gen === 'number' && o.gen >= 2)
    return withMac({ kind: 'shelly-gen2', ...(typeof o.model === 'string' ? { model: o.model } : {}) });
  if (typeof o.type === 'string') return withMac({ kind: 'shelly-gen1', model: o.type, phases: 3 });
  throw new CollectorError('unexpectedAnswer', 'the device does not answer like a Shelly (/shelly has neither gen nor type)');
}

/** Our values from `EM.GetStatus` and `EMData.GetStatus`. */
export function emValues(em: Record<string, unknown>, data: Record<string, unknown>): Record<string, number> {
  const v: Record<string, number> = {};
  for (const [x, p] of PHASES) {
    put(v, `vave${p}`, em[`${x}_voltage`]);
    put(v, `iave${p}`, em[`${x}_current`]);
    put(v, `pave${p}`, em[`${x}_act_power`]);
    put(v, `pfave${p}`, em[`${x}_pf`]);
    put(v, `eai${p}`, data[`${x}_total_act_energy`], WH);
    put(v, `eae${p}`, data[`${x}_total_act_ret_energy`], WH);
  }
  // Present only on some firmware; the phases share one grid frequency.
  put(v, 'frq1', em.a_freq);
  put(v, 'power3phases', em.total_act_power);
  return v;
}

/** Our values from `EM1.GetStatus` and `EM1Data.GetStatus` (one channel, shown as phase 1). */
export function em1Values(em: Record<string, unknown>, data: Record<string, unknown>): Record<string, number> {
  const v: Record<string, number> = {};
  put(v, 'vave1', em.voltage);
  put(v, 'iave1', em.current);
  put(v, 'pave1', em.act_power);
  put(v, 'pfave1', em.pf);
  put(v, 'frq1', em.freq);
  put(v, 'eai1', data.total_act_energy, WH);
  put(v, 'eae1', data.total_act_ret_energy, WH);
  return v;
}

/**
 * Readings from `EMData.GetData` answers (`keys` and blocks of `values` rows, one per `period` seconds from
 * `ts`): each row's energies are Wh within its minute, added to the counters of `start` (the last stored
 * reading) so the filled readings continue them; stamped at the end of their minute. Rows at or before
 * `after` or from `before` on are left out.
 */
export function historyReadings(
  answers: readonly Record<string, unknown>[],
  start: Readonly<Record<string, number>>,
  after: number,
  before: number,
): CollectedReading[] {
  const counters: Record<string, number> = {};
  for (const [, p] of PHASES) for (const c of [`eai${p}`, `eae${p}`]) if (typeof start[c] === 'number') counters[c] = start[c] as number;
  const rows: CollectedReading[] = [];
  for (const answer of answers) {
    const keys = Array.isArray(answer.keys) ? (answer.keys as unknown[]).map(String) : [];
    const blocks = Array.isArray(answer.data) ? (answer.data as unknown[]) : [];
    for (const block of blocks) {
      if (!block || typeof block !== 'object') continue;
      const { ts, period, values } = block as { ts?: unknown; period?: unknown; values?: unknown };
      if (typeof ts !== 'number' || typeof period !== 'number' || period <= 0 || !Array.isArray(values)) continue;
      values.forEach((row, i) => {
        if (!Array.isArray(row)) return;
        const end = (ts + period * (i + 1)) * 1000;
        if (end <= after || end >= before) return;
        const at = (k: string) => {
          const j = keys.indexOf(k);
          const x = j < 0 ? undefined : row[j];
          return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
        };
        const v: Record<string, number> = {};
        for (const [x, p] of PHASES) {
          const imp = at(`${x}_total_act_energy`);
          const ret = at(`${x}_total_act_ret_energy`);
          if (imp !== undefined && counters[`eai${p}`] !== undefined)
            v[`eai${p}`] = counters[`eai${p}`] = (counters[`eai${p}`] as number) + imp / WH;
          if (ret !== undefined && counters[`eae${p}`] !== undefined)
            v[`eae${p}`] = counters[`eae${p}`] = (counters[`eae${p}`] as number) + ret / WH;
          if (imp !== undefined && ret !== undefined) v[`pave${p}`] = ((imp - ret) * 3600) / period;
          const set = (name: string, key: string) => {
            const y = at(key);
            if (y !== undefined) v[name] = y;
          };
          set(`vave${p}`, `${x}_avg_voltage`);
          set(`vmax${p}`, `${x}_max_voltage`);
          set(`vmin${p}`, `${x}_min_voltage`);
          set(`iave${p}`, `${x}_avg_current`);
          set(`imax${p}`, `${x}_max_current`);
          set(`imin${p}`, `${x}_min_current`);
          set(`pmax${p}`, `${x}_max_act_power`);
          set(`pmin${p}`, `${x}_min_act_power`);
        }
        // Counters are rounded as meters print them, so sums of float minutes do not show 0.30000000000000004.
        for (const k of Object.keys(v)) if (k.startsWith('ea')) v[k] = Math.round((v[k] as number) * 1e6) / 1e6;
        if (Object.keys(v).length > 0) rows.push({ ts: end, values: v });
      });
    }
  }
  return rows.sort((a, b) => a.ts - b.ts);
}

/** The minutes between the last stored reading and now, from the device's store (best effort: what it has). */
async function fillGap(ctx: PollContext, now: number): Promise<CollectedReading[]> {
  const last = ctx.last;
  if (!last || now - last.ts <= Math.max(GAP_MS, 3 * ctx.pollSeconds * 1000)) return [];
  const from = Math.max(last.ts, now - MAX_FILL_MS, ctx.oldest);
  const answers: Record<string, unknown>[] = [];
  let ts = Math.floor(from / 1000);
  const end = Math.floor(now / 1000);
  try {
    for (let guard = 0; ts < end && guard < 100; guard++) {
      const chunkEnd = Math.min(end, ts + FILL_CHUNK_S);
      const answer = objectOf(
        await ctx.get(`rpc/EMData.GetData?id=0&ts=${ts}&end_ts=${chunkEnd}`, { maxBytes: 4 * 1024 * 1024, timeoutMs: 15_000 }),
        'EMData.GetData',
      );
      answers.push(answer);
      // A chunked answer says where the next one starts.
      ts =
        typeof answer.next_record_ts === 'number' && answer.next_record_ts > ts && answer.next_record_ts < chunkEnd
          ? answer.next_record_ts
          : chunkEnd;
    }
  } catch {
    // The live reading below still counts; whatever history arrived is kept.
  }
  return historyReadings(answers, last.values, last.ts, now);
}

export const shellyGen2: PolledFamily = {
  kind: 'shelly-gen2',

  async probe(ctx: PollContext): Promise<DeviceInfo> {
    const info = shellyIdentity(await ctx.get('shelly'));
    if (info.kind !== 'shelly-gen2') return info;
    const [reading] = await this.poll({ ...ctx, last: null });
    return { ...info, phases: reading && reading.values.vave2 !== undefined ? 3 : 1 };
  },

  async poll(ctx: PollContext): Promise<CollectedReading[]> {
    const key = ctx.base.href;
    if (!usesEm1.get(key)) {
      try {
        const em = objectOf(await ctx.get('rpc/EM.GetStatus?id=0'), 'EM.GetStatus');
        const data = objectOf(await ctx.get('rpc/EMData.GetStatus?id=0'), 'EMData.GetStatus');
        const now = ctx.now();
        const history = await fillGap(ctx, now);
        return [...history, { ts: now, values: emValues(em, data) }];
      } catch (err) {
        // A device without an `em` component answers 404 or an RPC error (-105, "not found"): it has `em1`.
        if (!(err instanceof CollectorError && err.key === 'httpStatus')) throw err;
        usesEm1.set(key, true);
      }
    }
    const em = objectOf(await ctx.get('rpc/EM1.GetStatus?id=0'), 'EM1.GetStatus');
    const data = objectOf(await ctx.get('rpc/EM1Data.GetStatus?id=0'), 'EM1Data.GetStatus');
    return [{ ts: ctx.now(), values: em1Values(em, data) }];
  },
};
