import { DEVICE_TYPES } from '@phasewatch/shared';
import { hashUnit, smoothNoise } from '../random.js';
import { DECIMALS, DeviceModel, type ModelOptions } from './device-model.js';
import {
  clearSkyIrradiance,
  DAY_MS,
  dayOfYear,
  gridFrequency,
  gridVoltage,
  HOUR_MS,
  MINUTE_MS,
  outdoorTemperature,
  rssi,
  sagDepth,
  season,
  sunElevationSin,
} from './environment.js';

/** Below this AC power the inverter sleeps: nothing exported, DC side reads 0. */
const WAKE_WATTS = 15;
/** The inverter's own consumption while asleep, per phase (W): it imports a little at night. */
const STANDBY_WATTS = 1.5;

function solarParams(): [string, number][] {
  const out: [string, number][] = [];
  for (let p = 1; p <= 3; p++) {
    out.push([`pave${p}`, DECIMALS.power], [`pmax${p}`, DECIMALS.power], [`pmin${p}`, DECIMALS.power]);
    out.push([`vave${p}`, DECIMALS.voltage], [`vmax${p}`, DECIMALS.voltage], [`vmin${p}`, DECIMALS.voltage]);
    out.push([`iave${p}`, DECIMALS.current], [`eai${p}`, DECIMALS.energy], [`eae${p}`, DECIMALS.energy]);
  }
  out.push(['energy3phases_import', DECIMALS.energy], ['energy3phases_export', DECIMALS.energy], ['power3phases', DECIMALS.power]);
  out.push(['vdc1', DECIMALS.voltage], ['vdc2', DECIMALS.voltage], ['idc1', DECIMALS.current], ['idc2', DECIMALS.current]);
  out.push(['frq1', DECIMALS.frequency], ['rssi', 0]);
  return out;
}

/**
 * A three-phase PV inverter with two MPPT strings (code 10). Production follows the clear-sky bell of the
 * sun at the site's latitude and season, dimmed by the day's cloudiness and passing clouds, derated by cell
 * temperature and clipped at the inverter's rating. `pave*` is the exported power (positive), the export
 * counters `eae*` integrate it; at night the inverter sleeps and imports its standby power into `eai*`.
 */
export class SolarModel extends DeviceModel {
  readonly typeCode = DEVICE_TYPES.SOLAR;
  /** Peak power of the array in W. */
  readonly peakWatts: number;
  private readonly split: readonly number[];
  /** How the output splits over the three phases (a grid meter behind the PV nets each phase's share). */
  get phaseSplit(): readonly number[] {
    return this.split;
  }
  private readonly stringShare: number;
  private readonly stringVmp: readonly [number, number];

  constructor(options: ModelOptions) {
    super(options, solarParams(), 6);
    this.peakWatts = 5000 + Math.round(hashUnit(this.seed, 800, 0) * 5) * 1000;
    const d = 0.02 * (hashUnit(this.seed, 801, 0) - 0.5);
    this.split = [1 / 3 + d, 1 / 3 - d / 2, 1 / 3 - d / 2];
    this.stringShare = 0.5 + 0.1 * hashUnit(this.seed, 802, 0);
    this.stringVmp = [420 + 120 * hashUnit(this.seed, 803, 0), 380 + 100 * hashUnit(this.seed, 804, 0)];
    for (let p = 0; p < 3; p++) {
      this.counters[p * 2] = this.initialCounter(p * 2, 30);
      this.counters[p * 2 + 1] = this.initialCounter(p * 2 + 1, 4000);
    }
  }

  /** Cloud cover 0–1 at the instant: a cloudiness per day (more overcast days in winter) and passing clouds. */
  cloudCover(tsMs: number, winter: number): number {
    const day = Math.floor(tsMs / DAY_MS);
    const u = hashUnit(this.seed, 810, day);
    const daily = u ** (1.5 - 0.8 * ((winter + 1) / 2));
    const passing = 0.45 * smoothNoise(this.seed, 811, tsMs, 20 * MINUTE_MS) * (4 * daily * (1 - daily) + 0.15);
    return Math.min(1, Math.max(0, daily + passing));
  }

  /** AC power the inverter delivers at the instant (W), 0 when it sleeps. */
  acPower(tsMs: number): number {
    const doy = dayOfYear(tsMs);
    const sin = sunElevationSin(tsMs, this.latitude, this.longitude, doy);
    const g = clearSkyIrradiance(sin);
    if (g <= 0) return 0;
    const winter = -season(doy);
    const cloud = 1 - 0.8 * this.cloudCover(tsMs, winter);
    const local = this.clock.at(tsMs);
    const cellT = outdoorTemperature(this.seed, tsMs, doy, local.hour) + 25 * (g / 1000);
    // Panels tilted towards the south gain over a horizontal surface, most when the sun is low.
    const tilt = 1 + 0.35 * (1 - sin);
    const p = this.peakWatts * (g / 1000) * tilt * 0.86 * cloud * (1 - 0.004 * (cellT - 25));
    const clipped = Math.min(p, this.peakWatts * 0.95);
    return clipped < WAKE_WATTS ? 0 : clipped;
  }

  protected compute(tsMs: number, dtMs: number, _windowMs: number): void {
    const seed = this.seed;
    const P = this.acPower(tsMs);
    const doy = dayOfYear(tsMs);
    const local = this.clock.at(tsMs);
    const sec = Math.floor(tsMs / 1000);
    const dtH = dtMs / HOUR_MS;
    const v = this.values;
    const c = this.counters;
    let total = 0;
    for (let p = 0; p < 3; p++) {
      const share = this.split[p] ?? 1 / 3;
      const pp = P * share;
      const sag = sagDepth(seed, p + 1, tsMs);
      // Exporting lifts the local voltage a little (the opposite of a load).
      const V = Math.max(185, gridVoltage(seed, p + 1, tsMs, local.hour) + (0.3 * pp) / 230 - sag);
      const flicker = P > 0 ? 0.15 * hashUnit(seed, 820 + p, sec) : 0;
      const o = p * 9;
      v[o] = pp;
      v[o + 1] = Math.min(this.peakWatts * share, pp * (1 + flicker));
      v[o + 2] = pp * (1 - flicker);
      v[o + 3] = V;
      v[o + 4] = Math.min(253, V + 0.3 + hashUnit(seed, 830 + p, sec));
      v[o + 5] = Math.max(180, V - 0.3 - hashUnit(seed, 840 + p, sec) - (sag > 0 ? 4 : 0));
      v[o + 6] = pp > 0 ? pp / V : STANDBY_WATTS / V;
      if (pp > 0) c[p * 2 + 1] = (c[p * 2 + 1] ?? 0) + (pp * dtH) / 1000;
      else c[p * 2] = (c[p * 2] ?? 0) + (STANDBY_WATTS * dtH) / 1000;
      v[o + 7] = c[p * 2] ?? 0;
      v[o + 8] = c[p * 2 + 1] ?? 0;
      total += pp;
    }
    v[27] = (c[0] ?? 0) + (c[2] ?? 0) + (c[4] ?? 0);
    v[28] = (c[1] ?? 0) + (c[3] ?? 0) + (c[5] ?? 0);
    v[29] = total;
    if (P > 0) {
      const g = clearSkyIrradiance(sunElevationSin(tsMs, this.latitude, this.longitude, doy));
      const cellT = outdoorTemperature(seed, tsMs, doy, local.hour) + 25 * (g / 1000);
      const light = 0.9 + 0.1 * Math.min(1, P / (0.3 * this.peakWatts));
      const dc = P / 0.97;
      const vdc1 = this.stringVmp[0] * (1 - 0.0035 * (cellT - 25)) * light;
      const vdc2 = this.stringVmp[1] * (1 - 0.0035 * (cellT - 25)) * light;
      v[30] = vdc1;
      v[31] = vdc2;
      v[32] = (dc * this.stringShare) / vdc1;
      v[33] = (dc * (1 - this.stringShare)) / vdc2;
    } else {
      v[30] = 0;
      v[31] = 0;
      v[32] = 0;
      v[33] = 0;
    }
    v[34] = gridFrequency(seed, tsMs);
    v[35] = rssi(seed, tsMs, -71);
  }
}
