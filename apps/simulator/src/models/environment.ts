import { hashUnit, smoothNoise } from '../random.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Local calendar position of a UTC instant; load curves follow local time, timestamps stay UTC. */
export interface LocalTime {
  /** Fractional local hour, 0 ≤ hour < 24. */
  hour: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Days since 1970-01-01 in local time: the key of per-day events such as appliance runs. */
  day: number;
}

/**
 * A UTC → local converter for one IANA zone. Offsets come from Intl (so DST follows the real rules) and are
 * cached per UTC hour: readings arrive in order, so one Intl call per simulated hour is all it costs.
 */
export class LocalClock {
  private readonly fmt: Intl.DateTimeFormat;
  private cachedHour = Number.NaN;
  private cachedOffset = 0;
  readonly local: LocalTime = { hour: 0, weekday: 0, day: 0 };

  constructor(readonly timeZone: string) {
    this.fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
  }

  /** Offset of local time from UTC in ms at the instant (positive east of Greenwich). */
  offsetMs(tsMs: number): number {
    const hourKey = Math.floor(tsMs / HOUR_MS);
    if (hourKey !== this.cachedHour) {
      const at = hourKey * HOUR_MS;
      const parts: Record<string, number> = {};
      for (const p of this.fmt.formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
      const asUtc = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
      this.cachedOffset = asUtc - at;
      this.cachedHour = hourKey;
    }
    return this.cachedOffset;
  }

  /** Local hour/weekday/day of the instant; returns a shared object (no allocation per reading). */
  at(tsMs: number): LocalTime {
    const localMs = tsMs + this.offsetMs(tsMs);
    const day = Math.floor(localMs / DAY_MS);
    this.local.day = day;
    this.local.hour = (localMs - day * DAY_MS) / HOUR_MS;
    // 1970-01-01 was a Thursday.
    this.local.weekday = (((day + 4) % 7) + 7) % 7;
    return this.local;
  }
}

let doyCacheDay = Number.NaN;
let doyCacheValue = 0;

/** Day of the year (0-based) of a UTC instant, good enough for sun and season maths (cached per day). */
export function dayOfYear(tsMs: number): number {
  const day = Math.floor(tsMs / DAY_MS);
  if (day !== doyCacheDay) {
    const year = new Date(day * DAY_MS).getUTCFullYear();
    doyCacheValue = day - Date.UTC(year, 0, 1) / DAY_MS;
    doyCacheDay = day;
  }
  return doyCacheValue;
}

/** Season from -1 (mid-winter, late January) to +1 (mid-summer, late July) on the northern hemisphere. */
export function season(doy: number): number {
  return -Math.cos((2 * Math.PI * (doy - 20)) / 365);
}

const DEG = Math.PI / 180;

/** Sine of the sun's elevation at the instant and place (declination + equation-of-time approximation). */
export function sunElevationSin(tsMs: number, latitude: number, longitude: number, doy: number): number {
  const decl = 23.44 * DEG * Math.sin((2 * Math.PI * (284 + doy + 1)) / 365);
  const b = (2 * Math.PI * (doy - 80)) / 364;
  const eotMin = 9.87 * Math.sin(2 * b) - 7.53 * Math.cos(b) - 1.5 * Math.sin(b);
  const utcHours = (((tsMs % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
  const solarHours = utcHours + longitude / 15 + eotMin / 60;
  const hourAngle = (solarHours - 12) * 15 * DEG;
  const lat = latitude * DEG;
  return Math.sin(lat) * Math.sin(decl) + Math.cos(lat) * Math.cos(decl) * Math.cos(hourAngle);
}

/** Clear-sky global horizontal irradiance in W/m² (Meinel air-mass model plus a diffuse share). */
export function clearSkyIrradiance(elevationSin: number): number {
  if (elevationSin <= 0.01) return 0;
  const airMass = 1 / elevationSin;
  const direct = 1353 * 0.7 ** (airMass ** 0.678);
  return 1.1 * direct * elevationSin;
}

/** Outdoor temperature in °C: seasonal mean, afternoon maximum, and weather fronts lasting hours. */
export function outdoorTemperature(seed: number, tsMs: number, doy: number, localHour: number): number {
  const mean = 8 + 10.5 * season(doy);
  const daily = 4 * Math.cos(((localHour - 15) / 24) * 2 * Math.PI);
  const weather = 4 * smoothNoise(seed, 901, tsMs, 18 * HOUR_MS) + 1.5 * smoothNoise(seed, 902, tsMs, 3 * HOUR_MS);
  return mean + daily + weather;
}

/** Grid voltage before the device's own load: 230 V wander (slow and fast) and a dip at the evening grid peak. */
export function gridVoltage(seed: number, phase: number, tsMs: number, localHour: number): number {
  const slow = 3.5 * smoothNoise(seed, 100 + phase, tsMs, 2 * HOUR_MS);
  const fast = 1.2 * smoothNoise(seed, 110 + phase, tsMs, 10 * MINUTE_MS);
  const eveningDip = -2.5 * Math.exp(-(((localHour - 19) / 2) ** 2));
  return 231 + slow + fast + eveningDip;
}

/**
 * Depth in volts of a voltage sag at the instant, 0 almost always: about one UTC hour in 150 holds a sag of
 * one to three minutes, 15–40 V deep, on one phase or all. Keyed by the hour so the phases agree.
 */
export function sagDepth(seed: number, phase: number, tsMs: number): number {
  const hourKey = Math.floor(tsMs / HOUR_MS);
  if (hashUnit(seed, 120, hourKey) >= 1 / 150) return 0;
  const start = hourKey * HOUR_MS + Math.floor(hashUnit(seed, 121, hourKey) * 57) * MINUTE_MS;
  const len = (1 + Math.floor(hashUnit(seed, 122, hourKey) * 3)) * MINUTE_MS;
  if (tsMs <= start || tsMs > start + len) return 0;
  const allPhases = hashUnit(seed, 123, hourKey) < 0.5;
  const hitPhase = 1 + Math.floor(hashUnit(seed, 124, hourKey) * 3);
  return allPhases || hitPhase === phase ? 15 + 25 * hashUnit(seed, 125, hourKey) : 0;
}

/** Grid frequency around 50 Hz (slow drift plus minute-scale jitter, within ±0.1 Hz). */
export function gridFrequency(seed: number, tsMs: number): number {
  const f = 50 + 0.035 * smoothNoise(seed, 130, tsMs, 15 * MINUTE_MS) + 0.012 * smoothNoise(seed, 131, tsMs, MINUTE_MS);
  return Math.min(50.09, Math.max(49.91, f));
}

/** WiFi signal in dBm around the device's typical level. */
export function rssi(seed: number, tsMs: number, typical: number): number {
  return Math.round(typical + 6 * smoothNoise(seed, 140, tsMs, 3 * HOUR_MS) + 2 * smoothNoise(seed, 141, tsMs, 2 * MINUTE_MS));
}
