import { hashUnit } from '../random.js';
import { DAY_MS, LocalClock, MINUTE_MS } from './environment.js';

/** What shapes one simulated device; everything else follows from the seed. */
export interface ModelOptions {
  seed: number;
  /** IANA zone whose local time drives the load curves (timestamps are always UTC). */
  timeZone?: string;
  /** Site position for the sun (degrees, north and east positive); Warsaw by default. */
  latitude?: number;
  longitude?: number;
  /** Expected transmission gaps (10 min – 4 h, counters keep counting) per year. */
  gapsPerYear?: number;
  /** Expected counter resets (meter swaps: every counter restarts at 0) per year. */
  resetsPerYear?: number;
  /**
   * A grid meter behind rooftop solar (issue 33): the seed of the PV inverter's model at the same site.
   * The meter then measures the house's load minus the PV's output per phase: import when the house uses
   * more, export (`eae*`) when the PV produces more.
   */
  rooftopSolarSeed?: number;
}

/** The state a model needs to continue exactly where it stopped (stored in the simulator's state file). */
export interface ModelSnapshot {
  /** Timestamp (ms) of the last reading the model produced. */
  ts: number;
  counters: number[];
  /** Model-specific state (the thermostat's room temperature and relay). */
  extra: number[];
}

/** How many decimals each unit is sent with: the meter's resolution, and a smaller payload. */
export const DECIMALS = { power: 1, voltage: 1, current: 3, energy: 3, pf: 3, frequency: 2, temperature: 1, state: 0 } as const;

/**
 * A simulated device: `step(ts)` advances it to the next reading time, integrating its energy counters over
 * the interval, and leaves the reading in `values` (one slot per entry of `params`). Nothing is allocated
 * per reading, so a year of minutes for a fleet stays cheap.
 */
export abstract class DeviceModel {
  abstract readonly typeCode: number;
  /** Parameter names in the order of `values`. */
  readonly params: readonly string[];
  /** Decimals of each parameter when serialised. */
  readonly decimals: Uint8Array;
  readonly values: Float64Array;
  readonly seed: number;
  protected readonly clock: LocalClock;
  protected readonly latitude: number;
  protected readonly longitude: number;
  protected readonly counters: Float64Array;
  protected prevTs: number | null = null;
  private readonly gapChance: number;
  private readonly resetChance: number;

  protected constructor(options: ModelOptions, params: readonly (readonly [name: string, decimals: number])[], counterCount: number) {
    this.seed = options.seed >>> 0;
    this.clock = new LocalClock(options.timeZone ?? 'Europe/Warsaw');
    this.latitude = options.latitude ?? 52.23;
    this.longitude = options.longitude ?? 21.01;
    this.gapChance = (options.gapsPerYear ?? 6) / 365;
    this.resetChance = (options.resetsPerYear ?? 0.5) / 365;
    this.params = params.map((p) => p[0]);
    this.decimals = Uint8Array.from(params.map((p) => p[1]));
    this.values = new Float64Array(params.length);
    this.counters = new Float64Array(counterCount);
  }

  /** Timestamp of the last reading produced, or null before the first. */
  get lastTs(): number | null {
    return this.prevTs;
  }

  /**
   * Advances to `tsMs` (strictly after the previous reading) and computes the reading there. The energy of
   * the interval since the previous reading is added to the counters; a reset instant inside the interval
   * zeroes them first.
   */
  step(tsMs: number): void {
    const prev = this.prevTs;
    if (prev !== null && tsMs <= prev) throw new Error(`readings must move forward: ${new Date(tsMs).toISOString()}`);
    const dtMs = prev === null ? 0 : tsMs - prev;
    if (prev !== null && this.resetBetween(prev, tsMs)) this.counters.fill(0);
    this.compute(tsMs, dtMs, prev === null ? MINUTE_MS : Math.min(dtMs, MINUTE_MS));
    this.prevTs = tsMs;
  }

  /** Fills `values` for the reading at `tsMs`; `dtMs` is the integration step, `windowMs` the averaging window. */
  protected abstract compute(tsMs: number, dtMs: number, windowMs: number): void;

  /** The instant of the reset (meter swap) on a UTC day, if that day has one; mid-minute so it falls inside one step. */
  resetInstant(utcDay: number): number | null {
    if (this.resetChance <= 0 || hashUnit(this.seed, 200, utcDay) >= this.resetChance) return null;
    return utcDay * DAY_MS + Math.floor(hashUnit(this.seed, 201, utcDay) * 1440) * MINUTE_MS + 30_000;
  }

  /** Whether a deliberate reset lies in (fromMs, toMs]. */
  resetBetween(fromMs: number, toMs: number): boolean {
    for (let d = Math.floor(fromMs / DAY_MS); d <= Math.floor(toMs / DAY_MS); d++) {
      const r = this.resetInstant(d);
      if (r !== null && r > fromMs && r <= toMs) return true;
    }
    return false;
  }

  /** Whether the device is deliberately silent at `tsMs` (a transmission gap; its meter keeps counting). */
  isGap(tsMs: number): boolean {
    if (this.gapChance <= 0) return false;
    const day = Math.floor(tsMs / DAY_MS);
    for (let d = day - 1; d <= day; d++) {
      if (hashUnit(this.seed, 210, d) >= this.gapChance) continue;
      const start = d * DAY_MS + Math.floor(hashUnit(this.seed, 211, d) * 1440) * MINUTE_MS;
      const len = (10 + Math.floor(hashUnit(this.seed, 212, d) * 230)) * MINUTE_MS;
      if (tsMs > start && tsMs <= start + len) return true;
    }
    return false;
  }

  /** The state needed to resume after `lastTs`. */
  snapshot(): ModelSnapshot {
    if (this.prevTs === null) throw new Error('no reading yet');
    return { ts: this.prevTs, counters: Array.from(this.counters), extra: this.extraState() };
  }

  /** Continues from a snapshot taken by `snapshot()` (of a model with the same options). */
  restore(s: ModelSnapshot): void {
    if (s.counters.length !== this.counters.length) throw new Error('snapshot of another model');
    this.counters.set(s.counters);
    this.prevTs = s.ts;
    this.restoreExtra(s.extra);
  }

  protected extraState(): number[] {
    return [];
  }

  protected restoreExtra(_extra: number[]): void {}

  /** Counter start values of a meter that has been running for a while (deterministic per seed). */
  protected initialCounter(index: number, maxKwh: number): number {
    return Math.round(hashUnit(this.seed, 300, index) * maxKwh * 1000) / 1000;
  }
}
