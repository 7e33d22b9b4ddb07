import { DEVICE_TYPES } from '@phasewatch/shared';
import { hashUnit, smoothNoise } from '../random.js';
import { APARTMENT_APPLIANCES, type Appliance, ApplianceSchedule, HOUSEHOLD_APPLIANCES, WORKSHOP_APPLIANCES } from './appliances.js';
import { DECIMALS, DeviceModel, type ModelOptions } from './device-model.js';
import { dayOfYear, gridFrequency, gridVoltage, HOUR_MS, MINUTE_MS, rssi, sagDepth, season } from './environment.js';
import { SolarModel } from './solar.js';

/** Whose load the meter measures. */
export type LoadProfile = 'household' | 'workshop' | 'apartment';

/** Bell curve around `mean` (hours) with width `sd`. */
function bell(h: number, mean: number, sd: number): number {
  const z = (h - mean) / sd;
  return Math.exp(-0.5 * z * z);
}

/** 0 before `a`, 1 after `b`, smooth in between. */
function ramp(h: number, a: number, b: number): number {
  if (h <= a) return 0;
  if (h >= b) return 1;
  const x = (h - a) / (b - a);
  return x * x * (3 - 2 * x);
}

/** Share of the household's free-running load (lights, TV, computers, cooking helpers) by local hour. */
function householdActivity(h: number, weekday: number): number {
  if (weekday === 0 || weekday === 6) return 550 * bell(h, 9.5, 1.3) + 600 * bell(h, 13.5, 1.8) + 1050 * bell(h, 19.5, 1.8);
  return 650 * bell(h, 6.9, 0.7) + 180 * bell(h, 13, 1.5) + 1000 * bell(h, 19.5, 1.6);
}

/** Fraction of full activity in the workshop: weekdays 7–15:30 with a lunch dip, Saturday mornings. */
function workshopActivity(h: number, weekday: number): number {
  if (weekday === 0) return 0;
  if (weekday === 6) return 0.35 * ramp(h, 7.5, 8.2) * (1 - ramp(h, 12, 12.5));
  const day = ramp(h, 6.5, 7.4) * (1 - ramp(h, 15.2, 16));
  return day * (1 - 0.6 * bell(h, 12.2, 0.25));
}

interface ProfileSpec {
  phases: 1 | 3;
  /** Standby load per phase in W. */
  base: readonly number[];
  /** How the free-running load splits over the phases (imbalance). */
  split: readonly number[];
  appliances: readonly Appliance[];
  /** Typical WiFi level in dBm. */
  rssi: number;
  /** Counter start values up to this many kWh (a meter that has run for a while). */
  counterStart: number;
}

const PROFILES: Record<LoadProfile, ProfileSpec> = {
  household: { phases: 3, base: [55, 40, 30], split: [0.45, 0.33, 0.22], appliances: HOUSEHOLD_APPLIANCES, rssi: -58, counterStart: 9000 },
  workshop: {
    phases: 3,
    base: [160, 110, 120],
    split: [0.36, 0.33, 0.31],
    appliances: WORKSHOP_APPLIANCES,
    rssi: -66,
    counterStart: 40000,
  },
  apartment: { phases: 1, base: [45], split: [1], appliances: APARTMENT_APPLIANCES, rssi: -62, counterStart: 6000 },
};

const PHASE_FIELDS = ['pave', 'pmax', 'pmin', 'vave', 'vmax', 'vmin', 'iave', 'imax', 'imin', 'pfave', 'pfmax', 'pfmin'] as const;
const FIELD_DECIMALS = [
  DECIMALS.power,
  DECIMALS.power,
  DECIMALS.power,
  DECIMALS.voltage,
  DECIMALS.voltage,
  DECIMALS.voltage,
  DECIMALS.current,
  DECIMALS.current,
  DECIMALS.current,
  DECIMALS.pf,
  DECIMALS.pf,
  DECIMALS.pf,
];
const COUNTER_FIELDS = ['eai', 'eae', 'eri', 'ere'] as const;
/** Per phase: 12 instantaneous values, then 4 counters. */
const PER_PHASE = PHASE_FIELDS.length + COUNTER_FIELDS.length;

function meterParams(phases: number): [string, number][] {
  const out: [string, number][] = [];
  for (let p = 1; p <= phases; p++) {
    PHASE_FIELDS.forEach((f, i) => {
      out.push([`${f}${p}`, FIELD_DECIMALS[i] ?? 1]);
    });
    for (const f of COUNTER_FIELDS) out.push([`${f}${p}`, DECIMALS.energy]);
  }
  if (phases === 3) {
    out.push(['energy3phases_import', DECIMALS.energy], ['energy3phases_export', DECIMALS.energy]);
    out.push(['renergy3phases_import', DECIMALS.energy], ['renergy3phases_export', DECIMALS.energy]);
    out.push(['power3phases', DECIMALS.power]);
  }
  out.push(['frq1', DECIMALS.frequency], ['rssi', 0]);
  return out;
}

/**
 * An energy meter (three-phase codes 13/16 or single-phase code 20) measuring a household, a workshop or a
 * flat. Per phase: mean/max/min power, voltage, current and power factor over the interval, and the
 * import/export active and reactive counters, which integrate the interval's mean power.
 */
export class EnergyMeterModel extends DeviceModel {
  readonly typeCode: number;
  private readonly spec: ProfileSpec;
  private readonly schedule: ApplianceSchedule;
  private readonly phases: number;
  private readonly avg: Float64Array;
  private readonly max: Float64Array;
  private readonly min: Float64Array;
  private readonly ind: Float64Array;
  /** Capacitive reactive power of each phase's electronics (var); wins at low load, so `ere` grows too. */
  private readonly capacitive: Float64Array;
  /** Fridge compressor cycle: period in minutes and phase offset. */
  private readonly fridgePeriod: number;
  private readonly fridgeOffset: number;
  /** The rooftop PV the meter sits behind (issue 33), or null: its output is netted from the load per phase. */
  private readonly pv: SolarModel | null;
  private readonly pvSplit: readonly number[];

  constructor(
    readonly profile: LoadProfile,
    options: ModelOptions,
    typeCode?: number,
  ) {
    const spec = PROFILES[profile];
    super(options, meterParams(spec.phases), spec.phases * 4);
    this.spec = spec;
    this.phases = spec.phases;
    this.typeCode =
      typeCode ??
      (profile === 'apartment'
        ? DEVICE_TYPES.SINGLE_PHASE_METER
        : profile === 'workshop'
          ? DEVICE_TYPES.ENERGY_METER_3P_ALT
          : DEVICE_TYPES.ENERGY_METER_3P);
    this.schedule = new ApplianceSchedule(this.seed, spec.appliances);
    this.avg = new Float64Array(this.phases);
    this.max = new Float64Array(this.phases);
    this.min = new Float64Array(this.phases);
    this.ind = new Float64Array(this.phases);
    this.capacitive = Float64Array.from({ length: this.phases }, (_, p) => 15 + 25 * hashUnit(this.seed, 700, p));
    this.fridgePeriod = 45 + 15 * hashUnit(this.seed, 701, 0);
    this.fridgeOffset = hashUnit(this.seed, 702, 0);
    this.pv =
      options.rooftopSolarSeed !== undefined && this.phases === 3
        ? new SolarModel({ ...options, seed: options.rooftopSolarSeed, gapsPerYear: 0, resetsPerYear: 0 })
        : null;
    this.pvSplit = this.pv ? this.pv.phaseSplit : [];
    for (let p = 0; p < this.phases; p++) {
      this.counters[p * 4] = this.initialCounter(p * 4, spec.counterStart);
      this.counters[p * 4 + 2] = this.initialCounter(p * 4 + 2, spec.counterStart * 0.15);
      this.counters[p * 4 + 3] = this.initialCounter(p * 4 + 3, spec.counterStart * 0.02);
    }
  }

  protected compute(tsMs: number, dtMs: number, windowMs: number): void {
    const local = this.clock.at(tsMs);
    const h = local.hour;
    const doy = dayOfYear(tsMs);
    const winter = -season(doy);
    const { avg, max, min, ind, phases, seed } = this;
    const windowH = windowMs / HOUR_MS;
    // Minute-scale jitter keyed by the second, so any reading interval gets its own but reproducible value.
    const sec = Math.floor(tsMs / 1000);

    for (let p = 0; p < phases; p++) {
      const share = this.spec.split[p] ?? 0;
      const wobble = 1 + 0.3 * smoothNoise(seed, 10 + p, tsMs, 7 * MINUTE_MS) + 0.12 * (hashUnit(seed, 20 + p, sec) - 0.5);
      let free: number;
      let motor = 0;
      if (this.profile === 'workshop') {
        const work = workshopActivity(h, local.weekday);
        // Machines: balanced three-phase motor load; lights and office follow the working day and the season.
        motor = work * 1800 * (1 - 0.12 * p) * (0.55 + 0.45 * smoothNoise(seed, 30 + p, tsMs, 5 * MINUTE_MS));
        // Compressor: 6 minutes on in every 20 while people work, once an hour otherwise (leaks).
        const cycle = work > 0.2 ? 20 : 60;
        const inCycle = ((tsMs / MINUTE_MS + 7 * hashUnit(seed, 703, 0)) % cycle) / cycle;
        if (inCycle < 6 / cycle) motor += 1300;
        free = (work * 450 + (work > 0 ? 120 * Math.max(0, winter) : 0)) * share * 3 * wobble;
      } else {
        const scale = this.profile === 'apartment' ? 0.7 : 1;
        // Winter evenings are darker and longer: more lighting, more time indoors.
        free = householdActivity(h, local.weekday) * scale * (1 + 0.25 * winter) * share * wobble;
        if (p === (phases === 3 ? 1 : 0)) {
          const phase = (tsMs / MINUTE_MS / this.fridgePeriod + this.fridgeOffset) % 1;
          if (phase < 0.38 + 0.08 * (1 - winter)) motor += 110;
        }
      }
      const base = (this.spec.base[p] ?? 40) * (1 + 0.05 * smoothNoise(seed, 40 + p, tsMs, HOUR_MS));
      const mean = base + free + motor;
      avg[p] = mean;
      ind[p] = motor * 0.85 + free * 0.12;
      max[p] = mean * (1.04 + 0.25 * hashUnit(seed, 50 + p, sec));
      min[p] = Math.max(base * 0.9, mean * (0.96 - 0.3 * hashUnit(seed, 60 + p, sec)));
    }
    this.schedule.accumulate(local.day, local.weekday, h, windowH, avg, max, min, ind);

    const dtH = dtMs / HOUR_MS;
    const v = this.values;
    const c = this.counters;
    let totalP = 0;
    // Behind rooftop PV the meter sees the load minus the PV's output on each phase (negative: exporting).
    const pvW = this.pv ? this.pv.acPower(tsMs) : 0;
    for (let p = 0; p < phases; p++) {
      const pv = pvW * (this.pvSplit[p] ?? 0);
      const load = avg[p] ?? 0;
      const P = load - pv;
      const Q = (ind[p] ?? 0) - (this.capacitive[p] ?? 0);
      const pf = load / Math.sqrt(load * load + Q * Q);
      const sag = sagDepth(seed, p + 1, tsMs);
      const grid = gridVoltage(seed, p + 1, tsMs, h);
      // Source impedance of about 0.25 Ω: the phase's own current pulls its voltage down.
      const V = Math.max(185, grid - (0.25 * P) / 230 - sag);
      const vSpread = 0.3 + 1.2 * hashUnit(seed, 70 + p, sec);
      const pfLow = pf - (0.01 + 0.06 * hashUnit(seed, 80 + p, sec));
      const o = p * PER_PHASE;
      v[o] = P;
      v[o + 1] = (max[p] ?? load) - pv;
      v[o + 2] = (min[p] ?? load) - pv;
      v[o + 3] = V;
      v[o + 4] = Math.min(253, V + vSpread + (sag > 0 ? sag * 0.5 : 0));
      v[o + 5] = Math.max(180, V - vSpread * 1.3 - (0.25 * ((max[p] ?? P) - P)) / 230 - (sag > 0 ? 4 : 0));
      v[o + 6] = Math.abs(P) / (V * pf);
      v[o + 7] = Math.abs((max[p] ?? load) - pv) / (V * pf);
      v[o + 8] = Math.abs((min[p] ?? load) - pv) / (V * pf);
      v[o + 9] = pf;
      v[o + 10] = Math.min(1, pf + 0.005 + 0.02 * hashUnit(seed, 90 + p, sec));
      v[o + 11] = Math.max(0.3, pfLow);
      const k = p * 4;
      if (P >= 0) c[k] = (c[k] ?? 0) + (P * dtH) / 1000;
      else c[k + 1] = (c[k + 1] ?? 0) - (P * dtH) / 1000;
      if (Q > 0) c[k + 2] = (c[k + 2] ?? 0) + (Q * dtH) / 1000;
      else c[k + 3] = (c[k + 3] ?? 0) - (Q * dtH) / 1000;
      v[o + 12] = c[k] ?? 0;
      v[o + 13] = c[k + 1] ?? 0;
      v[o + 14] = c[k + 2] ?? 0;
      v[o + 15] = c[k + 3] ?? 0;
      totalP += P;
    }
    let i = phases * PER_PHASE;
    if (phases === 3) {
      v[i++] = (c[0] ?? 0) + (c[4] ?? 0) + (c[8] ?? 0);
      v[i++] = (c[1] ?? 0) + (c[5] ?? 0) + (c[9] ?? 0);
      v[i++] = (c[2] ?? 0) + (c[6] ?? 0) + (c[10] ?? 0);
      v[i++] = (c[3] ?? 0) + (c[7] ?? 0) + (c[11] ?? 0);
      v[i++] = totalP;
    }
    v[i++] = gridFrequency(seed, tsMs);
    v[i] = rssi(seed, tsMs, this.spec.rssi);
  }
}
