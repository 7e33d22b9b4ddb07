import {
  computePowerQuality,
  deviceKind,
  FALLBACK_TIMEZONE,
  isMonday,
  localWeek,
  type PowerQualityResponse,
  type PqPhase,
  type PqPhaseSeries,
  weekBins,
} from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { keyedError } from '../../http/errors.js';
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

/**
 * The EN 50160 report of a device's local week (`week`: its Monday), computed
 * from raw readings (vave/vmin/vmax of its phases and frq1) with packages/shared/src/power-quality. Answers
 * 404 for another user's device or one without voltage readings, 400 (field `week`) for a week that is not a
 * Monday, has not started or ends before the device's first voltage reading. Used by the route and the PDF export job.
 */
export async function loadPowerQualityReport(
  src: PowerQualitySource,
  userId: number,
  deviceId: number,
  week: string,
  now = Date.now(),
): Promise<PowerQualityResponse> {
  const { device, phases, tz, location, from, to } = await resolveWeek(src, userId, deviceId, week, now);
  const names = phases.flatMap((p) => [`vave${p}`, `vmin${p}`, `vmax${p}`]);
  names.push('frq1');
  const { first: binStart, count } = weekBins(from, to);
  const raw = await src.readings.raw(device.id, Math.min(from, binStart), binStart + count * 600_000, names);
  const col = (k: number) => raw.cols[k] as Float64Array;
  const series: PqPhaseSeries[] = phases.map((p, k) => ({ phase: p, mean: col(3 * k), min: col(3 * k + 1), max: col(3 * k + 2) }));
  const report = computePowerQuality({
    from,
    to,
    tz,
    intervalS: device.reporting_interval_s,
    ts: raw.ts,
    phases: series,
    frequency: col(names.length - 1),
  });
  return { device: { id: device.id, name: device.friendly_name || device.name, location }, ...report };
}
