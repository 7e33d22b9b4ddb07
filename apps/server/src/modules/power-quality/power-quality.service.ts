import {
  binIndex,
  computePowerQuality,
  countFrequency,
  deviceKind,
  FALLBACK_TIMEZONE,
  frequencyOf,
  isMonday,
  localWeek,
  mondayOf,
  type PowerQualityResponse,
  PQ_COLUMNS,
  PQ_LIMITS,
  PqAggregate,
  type PqPhase,
  type PqPhaseSeries,
  phaseEvents,
  powerQualityFromBins,
  weekBins,
} from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { ApiError, keyedError } from '../../http/errors.js';
import type { Database, DeviceRow } from '../../storage/schema.js';
import type { DeviceReads } from '../devices/index.js';
import type { LocationsRepository } from '../locations/index.js';
import type { ReadingsRepository } from '../readings/index.js';

/** The phases a device kind reports voltage on; none: the device has no power-quality report. */
export function voltagePhases(typeCode: number): PqPhase[] {
  switch (deviceKind(typeCode)) {
    case 'energy':
      return [1, 2, 3];
    case 'singlePhase':
    case 'solar':
      return [1];
    default:
      return [];
  }
}

/** What the report is computed from: the storage handles it reads (plain repositories, no HTTP). */
export interface PowerQualitySource {
  db: Kysely<Database>;
  devices: DeviceReads;
  locations: LocationsRepository;
  readings: ReadingsRepository;
}

/** The device's zone for its week: its location's, else its owner's, else the fallback. */
export async function reportZone(
  src: PowerQualitySource,
  userId: number,
  device: DeviceRow,
): Promise<{ tz: string; location: string | null }> {
  const loc = device.location_id === null ? undefined : await src.locations.findForUser(userId, device.location_id);
  if (loc) return { tz: loc.timezone, location: loc.name };
  return { tz: (await src.locations.userInfo(userId))?.timezone ?? FALLBACK_TIMEZONE, location: null };
}

/** Time of the device's first raw reading that carries a phase-1 voltage; null without any. */
async function firstVoltage(db: Kysely<Database>, deviceId: number): Promise<number | null> {
  const r = await sql<{
    ts: number | string;
  }>`SELECT ts FROM readings WHERE device_id = ${deviceId} AND vave1 IS NOT NULL ORDER BY ts LIMIT 1`.execute(db);
  const row = r.rows[0];
  return row ? Number(row.ts) : null;
}

/** The device, its phases and zone, and the week's period; throws the route's 404 / 400 answers. */
export async function resolveWeek(src: PowerQualitySource, userId: number, deviceId: number, week: string, now: number) {
  const device = await src.devices.findForUser(userId, deviceId);
  if (!device) throw keyedError(404, 'errors.deviceNotFound');
  if (!isMonday(week)) throw keyedError(400, 'quality.errors.notMonday', { field: 'week' });
  const phases = voltagePhases(device.type_code);
  if (phases.length === 0) throw keyedError(404, 'quality.errors.noVoltage');
  const { tz, location } = await reportZone(src, userId, device);
  const { from, to } = localWeek(week, tz);
  if (from > now) throw keyedError(400, 'quality.errors.weekInFuture', { field: 'week' });
  const first = await firstVoltage(src.db, device.id);
  if (first === null) throw keyedError(404, 'quality.errors.noVoltage');
  if (to <= first) throw keyedError(400, 'quality.errors.weekBeforeFirstReading', { field: 'week' });
  return { device, phases, tz, location, from, to };
}

type Week = Awaited<ReturnType<typeof resolveWeek>>;
type Report = ReturnType<typeof computePowerQuality>;
type Raw = { ts: ArrayLike<number>; cols: readonly ArrayLike<number>[] };

const BIN = PQ_LIMITS.binMs;
/** Candidate bins this close (bins between them) are read in one raw query. */
const MERGE_GAP_BINS = 6;
/** Raw queries for a week's events at most: beyond, the ranges closest to each other are read together. */
const MAX_EVENT_READS = 32;

/** Ranges of bins (sorted, apart) merged across their smallest gaps until at most `max` are left. */
export function mergeClosest(ranges: readonly [number, number][], max: number): [number, number][] {
  if (ranges.length <= max) return ranges.map(([a, b]) => [a, b]);
  const gaps = ranges
    .slice(1)
    .map((r, i) => r[0] - (ranges[i] as [number, number])[1])
    .sort((x, y) => x - y);
  // Every gap up to the (n − max)-th smallest goes (ties: a few more, never more ranges than `max`).
  const limit = gaps[ranges.length - max - 1] as number;
  const out: [number, number][] = [];
  for (const [a, b] of ranges) {
    const last = out[out.length - 1];
    if (last && a - last[1] <= limit) last[1] = b;
    else out.push([a, b]);
  }
  return out;
}

/**
 * The week's report the way it always was computed: every raw reading of the week (vave/vmin/vmax of its
 * phases and frq1) through `computePowerQuality`. Kept as the reference the aggregate's answer is tested
 * against (power-quality.aggregate.test.ts, and the bench's check).
 */
export async function reportFromRaw(src: PowerQualitySource, w: Week): Promise<Report> {
  const { device, phases, tz, from, to } = w;
  const names = phases.flatMap((p) => [`vave${p}`, `vmin${p}`, `vmax${p}`]);
  names.push('frq1');
  const { first: binStart, count } = weekBins(from, to);
  const raw = await src.readings.raw(device.id, Math.min(from, binStart), binStart + count * BIN, names);
  const col = (k: number) => raw.cols[k] as Float64Array;
  const series: PqPhaseSeries[] = phases.map((p, k) => ({ phase: p, mean: col(3 * k), min: col(3 * k + 1), max: col(3 * k + 2) }));
  return computePowerQuality({
    from,
    to,
    tz,
    intervalS: device.reporting_interval_s,
    ts: raw.ts,
    phases: series,
    frequency: col(names.length - 1),
  });
}

/**
 * The week's report from the 10-minute aggregate (readings.pq.ts; `PqAggregate` in shared): the bins of the
 * hours it holds ([pq_from, watermark)) are read as stored, the rest of the week's bins computed from raw rows
 * (after the watermark: at most about an hour while the compactor keeps up). Events need each reading, so raw
 * rows are read only for the bins holding an event candidate (a few queries of a few hundred rows); a bin left
 * out that holds readings ends every run as its first reading would (a reading without values stands in for
 * it), so `phaseEvents` finds exactly the events of every raw reading. Frequency counts come from the bins
 * wholly inside the week and raw rows for the parts of a bin the week cuts (zones whose offset is not whole
 * 10 minutes). Every figure equals `reportFromRaw`'s.
 */
export async function reportFromAggregate(src: PowerQualitySource, w: Week): Promise<Report> {
  const { device, phases, tz, from, to } = w;
  const id = device.id;
  const intervalS = device.reporting_interval_s;
  const { first, count } = weekBins(from, to);
  const end = first + count * BIN;
  const cover = await src.readings.pqCoverage(id);
  const aLo = Math.min(end, Math.max(first, cover.from));
  const aHi = Math.min(end, Math.max(aLo, cover.through));
  const agg = new PqAggregate(first, count);
  const segments: { lo: number; hi: number; raw: Raw }[] = [];
  if (aLo > first) segments.push({ lo: first, hi: aLo, raw: await src.readings.raw(id, first, aLo, PQ_COLUMNS) });
  const tail = aHi < end ? { lo: aHi, hi: end, raw: await src.readings.raw(id, aHi, end, PQ_COLUMNS) } : null;
  for (const s of [...segments, ...(tail ? [tail] : [])]) agg.add(s.raw.ts, s.raw.cols, s.lo, s.hi);
  await src.readings.readPq(id, agg, aLo, aHi);

  // Event candidates in the stored bins, as ranges of bins to read raw.
  let ranges: [number, number][] = [];
  for (let b = binIndex(aLo, first); b < binIndex(aHi, first); b++) {
    if (agg.candidates(b) === 0) continue;
    const last = ranges[ranges.length - 1];
    if (last && b - last[1] <= MERGE_GAP_BINS) last[1] = b + 1;
    else ranges.push([b, b + 1]);
  }
  if (ranges.length > MAX_EVENT_READS) ranges = mergeClosest(ranges, MAX_EVENT_READS);
  for (const [b0, b1] of ranges) {
    const lo = first + b0 * BIN;
    const hi = first + b1 * BIN;
    segments.push({ lo, hi, raw: await src.readings.raw(id, lo, hi, PQ_COLUMNS) });
  }
  if (tail) segments.push(tail);

  // The readings events are found in: the segments in time order, a reading without values for each gap that has readings.
  const ts: number[] = [];
  const cols: number[][] = PQ_COLUMNS.map((): number[] => []);
  let prevHi = Number.NaN;
  for (const s of segments) {
    if (!Number.isNaN(prevHi) && s.lo > prevHi) {
      let rows = 0;
      for (let b = binIndex(prevHi, first); b < binIndex(s.lo, first) && rows === 0; b++) rows = agg.rows(b);
      if (rows > 0) {
        ts.push(prevHi);
        for (const c of cols) c.push(Number.NaN);
      }
    }
    for (let i = 0; i < s.raw.ts.length; i++) ts.push(s.raw.ts[i] as number);
    cols.forEach((c, j) => {
      const col = s.raw.cols[j] as ArrayLike<number>;
      for (let i = 0; i < col.length; i++) c.push(col[i] as number);
    });
    prevHi = s.hi;
  }
  const series = (p: PqPhase): PqPhaseSeries => ({
    phase: p,
    mean: cols[3 * (p - 1)] as number[],
    min: cols[3 * (p - 1) + 1] as number[],
    max: cols[3 * (p - 1) + 2] as number[],
  });

  // Frequency: the bins wholly inside the week, and raw rows where the week cuts a bin.
  const freq = agg.frequency(from, to);
  const edges: [number, number][] = [];
  if (from < first) edges.push([from, first]);
  const lastWhole = Math.floor(to / BIN) * BIN;
  if (lastWhole < to && lastWhole >= first) edges.push([lastWhole, to]);
  for (const [lo, hi] of edges) {
    const raw = await src.readings.raw(id, lo, hi, ['frq1']);
    const f = raw.cols[0] as Float64Array;
    for (let i = 0; i < f.length; i++) countFrequency(freq, f[i] as number);
  }

  return powerQualityFromBins({
    from,
    to,
    tz,
    intervalS,
    phases: phases.map((p) => agg.phaseBins(p)),
    events: phases.map((p) => phaseEvents(ts, series(p), intervalS, first, end)),
    frequency: frequencyOf(freq),
  });
}

/**
 * The EN 50160 report of a device's local week (`week`: its Monday), from the 10-minute aggregate and the few
 * raw rows it needs (`reportFromAggregate`; `raw: true`: from every raw reading, `reportFromRaw`). Answers
 * 404 for another user's device or one without voltage readings, 400 (field `week`) for a week that is not a
 * Monday, has not started or ends before the device's first voltage reading. Used by the route and the PDF export job.
 */
export async function loadPowerQualityReport(
  src: PowerQualitySource,
  userId: number,
  deviceId: number,
  week: string,
  now = Date.now(),
  opts: { raw?: boolean } = {},
): Promise<PowerQualityResponse> {
  const w = await resolveWeek(src, userId, deviceId, week, now);
  const report = opts.raw ? await reportFromRaw(src, w) : await reportFromAggregate(src, w);
  return { device: { id: w.device.id, name: w.device.friendly_name || w.device.name, location: w.location }, ...report };
}

/**
 * The report as the weekly EN 50160 notification reads it (the notifications' `QualityWeekSource`, handed in
 * by app.ts): a device's last complete local week, and that week's report (the aggregate's, ~25 ms), or null
 * where the route would answer 400/404 (no voltage readings, the week before its first reading).
 */
export function weekVerdicts(src: PowerQualitySource) {
  return {
    async lastWeek(userId: number, deviceId: number, now: number): Promise<string | null> {
      const device = await src.devices.findForUser(userId, deviceId);
      if (!device || voltagePhases(device.type_code).length === 0) return null;
      const { tz } = await reportZone(src, userId, device);
      // The week before the one `now` falls in: the Monday of the instant just before this week's start.
      return mondayOf(localWeek(mondayOf(now, tz), tz).from - 1, tz);
    },
    async report(userId: number, deviceId: number, week: string, now: number): Promise<PowerQualityResponse | null> {
      try {
        return await loadPowerQualityReport(src, userId, deviceId, week, now);
      } catch (err) {
        if (err instanceof ApiError && (err.statusCode === 400 || err.statusCode === 404)) return null;
        throw err;
      }
    },
  };
}
