import { type DeviceKind, localParts } from '@phasewatch/shared';
import type { ReadingsRequest } from '@/features/charts';

export const BASE_LOAD_WINDOW_MS = 7 * 86_400_000;
const Q = 15 * 60_000;

/** The power parameters the base load is read from: the total when sent, else the phases summed. */
export function basePowerParams(kind: DeviceKind): string[] {
  if (kind === 'singlePhase' || kind === 'thermostat') return ['pave1'];
  return ['power3phases', 'pave1', 'pave2', 'pave3'];
}

/**
 * The readings the "always on" figure is computed from: 15-minute power over the last 7 days, in whole
 * quarter-hours (the query key stays put for 15 minutes; the page's prefetch asks the same one).
 */
export function baseLoadRequest(deviceId: number, kind: DeviceKind, now = Date.now()): ReadingsRequest {
  const to = Math.floor(now / Q) * Q;
  return { deviceId, from: to - BASE_LOAD_WINDOW_MS, to, interval: '15m', params: basePowerParams(kind) };
}

const HOUR = 3_600_000;

/** How much of the window the figure rests on: 15-minute buckets with a power reading, in ms. */
export function baseLoadCoverage(power: readonly (number | null)[]): number {
  let n = 0;
  for (const v of power) if (v !== null && Number.isFinite(v)) n++;
  return n * Q;
}

/**
 * A coverage short of the week, for people: whole days from two days on, else whole hours (at least
 * one quarter-hour shows as minutes). Null when the week is covered (an hour of gaps allowed).
 */
export function partialCoverage(coveredMs: number): { value: number; unit: 'day' | 'hour' | 'minute' } | null {
  if (coveredMs >= BASE_LOAD_WINDOW_MS - HOUR) return null;
  if (coveredMs >= 48 * HOUR) return { value: Math.floor(coveredMs / (24 * HOUR)), unit: 'day' };
  if (coveredMs >= HOUR) return { value: Math.floor(coveredMs / HOUR), unit: 'hour' };
  return { value: Math.round(coveredMs / 60_000), unit: 'minute' };
}

/** The local hours [from, to) in which no solar plant produces, in any season, where our users live. */
export const NIGHT_HOURS: readonly [number, number] = [0, 4];

/**
 * The 15-minute power the "always on" figure is read from. A meter whose power goes below zero sends
 * energy out: something behind it produces (rooftop solar), and its net power by day says nothing of what
 * the house draws (its lowest 5 % would be an export, shown as 0 W). Such a meter's figure is read from
 * the night's buckets only, 00:00–04:00 local, when nothing produces; any other device's from all of them.
 */
export function baseLoadSample(
  ts: readonly number[],
  power: readonly (number | null)[],
  timezone: string,
): { power: (number | null)[]; nightOnly: boolean } {
  if (!power.some((v) => v !== null && v < 0)) return { power: [...power], nightOnly: false };
  const [from, to] = NIGHT_HOURS;
  return {
    power: power.map((v, i) => {
      const t = ts[i];
      if (v === null || t === undefined) return null;
      const hour = localParts(t, timezone).hour;
      return hour >= from && hour < to ? v : null;
    }),
    nightOnly: true,
  };
}
