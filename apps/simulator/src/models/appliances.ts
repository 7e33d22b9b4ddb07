import { hashUnit } from '../random.js';

/** An appliance that runs a few times a day at habitual local hours (kettle, oven, washing machine…). */
export interface Appliance {
  /** Phases it loads, as bits: 1 = L1, 2 = L2, 4 = L3 (a three-phase load sets several). */
  phases: number;
  /** Power per loaded phase in W. */
  watts: number;
  minutes: number;
  /** Probability of a run on a weekday and on a weekend day. */
  chance: readonly [weekday: number, weekend: number];
  /** Habitual start (local hour) and its spread in hours. */
  hour: number;
  spread: number;
  /** Share of the power that is inductive (motors): drives reactive energy and the power factor. */
  inductive: number;
}

/** Runs of one local day as flat [startHour, endHour, applianceIndex] triples. */
type DayRuns = Float64Array;

/**
 * The deterministic run schedule of a set of appliances. Each (device, appliance, local day) decides from a
 * hash whether and when the appliance runs, so any instant can be evaluated without replaying history.
 */
export class ApplianceSchedule {
  private cacheDay = Number.NaN;
  private today: DayRuns = new Float64Array(0);
  private yesterday: DayRuns = new Float64Array(0);

  constructor(
    private readonly seed: number,
    readonly appliances: readonly Appliance[],
  ) {}

  private runsOf(day: number, weekday: number): DayRuns {
    const runs: number[] = [];
    const weekend = weekday === 0 || weekday === 6;
    this.appliances.forEach((a, i) => {
      if (hashUnit(this.seed, 400 + i, day) >= a.chance[weekend ? 1 : 0]) return;
      // Sum of two uniforms: a cheap bell around the habitual hour.
      const jitter = hashUnit(this.seed, 500 + i, day) + hashUnit(this.seed, 600 + i, day) - 1;
      const start = Math.max(0, a.hour + jitter * a.spread * 1.7);
      runs.push(start, start + a.minutes / 60, i);
    });
    return Float64Array.from(runs);
  }

  /**
   * Adds the appliances' load over the window (localHour − windowH, localHour] into per-phase accumulators:
   * `avg` gets the energy-weighted mean power, `max` the peak, `min` the power present all window long,
   * `inductive` the inductive part of the mean.
   */
  accumulate(
    day: number,
    weekday: number,
    localHour: number,
    windowH: number,
    avg: Float64Array,
    max: Float64Array,
    min: Float64Array,
    inductive: Float64Array,
  ): void {
    if (day !== this.cacheDay) {
      this.yesterday = day === this.cacheDay + 1 ? this.today : this.runsOf(day - 1, (weekday + 6) % 7);
      this.today = this.runsOf(day, weekday);
      this.cacheDay = day;
    }
    this.add(this.today, 0, localHour, windowH, avg, max, min, inductive);
    // Yesterday's late runs may continue past midnight.
    this.add(this.yesterday, 24, localHour, windowH, avg, max, min, inductive);
  }

  private add(
    runs: DayRuns,
    shift: number,
    localHour: number,
    windowH: number,
    avg: Float64Array,
    max: Float64Array,
    min: Float64Array,
    inductive: Float64Array,
  ): void {
    const to = localHour + shift;
    const from = to - windowH;
    for (let k = 0; k < runs.length; k += 3) {
      const start = runs[k] ?? 0;
      const end = runs[k + 1] ?? 0;
      const overlap = Math.min(end, to) - Math.max(start, from);
      if (overlap <= 0) continue;
      const a = this.appliances[runs[k + 2] ?? 0];
      if (!a) continue;
      const share = Math.min(1, overlap / windowH);
      for (let p = 0; p < avg.length; p++) {
        if ((a.phases & (1 << p)) === 0) continue;
        avg[p] = (avg[p] ?? 0) + a.watts * share;
        inductive[p] = (inductive[p] ?? 0) + a.watts * share * a.inductive;
        max[p] = (max[p] ?? 0) + a.watts;
        if (share >= 1) min[p] = (min[p] ?? 0) + a.watts;
      }
    }
  }
}

const L1 = 1;
const L2 = 2;
const L3 = 4;

/** A family house on three phases: kitchen on L2/L3, laundry on L3, hot-water boiler on L1 at night. */
export const HOUSEHOLD_APPLIANCES: readonly Appliance[] = [
  { phases: L1, watts: 2000, minutes: 3, chance: [0.9, 0.8], hour: 6.8, spread: 0.6, inductive: 0 },
  { phases: L1, watts: 2000, minutes: 3, chance: [0.7, 0.9], hour: 16, spread: 2.5, inductive: 0 },
  { phases: L1, watts: 2000, minutes: 3, chance: [0.5, 0.6], hour: 20.5, spread: 1.2, inductive: 0 },
  { phases: L2 | L3, watts: 1200, minutes: 40, chance: [0.35, 0.7], hour: 17.5, spread: 1.5, inductive: 0 },
  { phases: L2, watts: 1800, minutes: 25, chance: [0.7, 0.8], hour: 18, spread: 1, inductive: 0 },
  { phases: L3, watts: 2000, minutes: 20, chance: [0.3, 0.5], hour: 10, spread: 3, inductive: 0.1 },
  { phases: L3, watts: 350, minutes: 75, chance: [0.3, 0.5], hour: 10.5, spread: 3, inductive: 0.6 },
  { phases: L3, watts: 1900, minutes: 25, chance: [0.6, 0.7], hour: 21, spread: 0.8, inductive: 0.05 },
  { phases: L1, watts: 1500, minutes: 70, chance: [0.7, 0.7], hour: 1.5, spread: 1, inductive: 0 },
  { phases: L2, watts: 1100, minutes: 8, chance: [0.5, 0.6], hour: 7.5, spread: 1.5, inductive: 0.2 },
];

/** A flat on one phase. */
export const APARTMENT_APPLIANCES: readonly Appliance[] = [
  { phases: L1, watts: 2000, minutes: 3, chance: [0.9, 0.8], hour: 7, spread: 0.6, inductive: 0 },
  { phases: L1, watts: 2000, minutes: 3, chance: [0.6, 0.9], hour: 17, spread: 2.5, inductive: 0 },
  { phases: L1, watts: 1800, minutes: 25, chance: [0.6, 0.8], hour: 18.5, spread: 1, inductive: 0 },
  { phases: L1, watts: 2000, minutes: 18, chance: [0.25, 0.45], hour: 11, spread: 3, inductive: 0.1 },
  { phases: L1, watts: 1800, minutes: 25, chance: [0.4, 0.5], hour: 21.5, spread: 0.8, inductive: 0.05 },
  { phases: L1, watts: 1200, minutes: 10, chance: [0.4, 0.5], hour: 7.8, spread: 1.5, inductive: 0.2 },
];

/** A small workshop: welding on L1 during working hours. */
export const WORKSHOP_APPLIANCES: readonly Appliance[] = [
  { phases: L1, watts: 4200, minutes: 8, chance: [0.8, 0.1], hour: 9, spread: 1, inductive: 0.5 },
  { phases: L1, watts: 4200, minutes: 12, chance: [0.7, 0.05], hour: 11, spread: 0.8, inductive: 0.5 },
  { phases: L1, watts: 4200, minutes: 6, chance: [0.7, 0], hour: 14, spread: 0.8, inductive: 0.5 },
  { phases: L1 | L2 | L3, watts: 2500, minutes: 35, chance: [0.6, 0.1], hour: 10, spread: 2, inductive: 0.7 },
  { phases: L2, watts: 2000, minutes: 15, chance: [0.5, 0], hour: 13.5, spread: 1, inductive: 0 },
];
