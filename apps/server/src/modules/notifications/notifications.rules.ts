import {
  type CounterRules,
  isNightTime,
  isWeakSignal,
  NOMINAL_VOLTAGE,
  type NotificationHold,
  type NotificationKind,
  stepEnergy,
} from '@phasewatch/shared';

/**
 * The notification rules as pure functions: what a reading says about each condition, how an alarm's
 * lifecycle moves (raise, worse, clear, reopen within the interval), and whether a new alarm is
 * delivered or held. The engine (notifications.engine.ts) keeps the state and stores the moves.
 */

/** Conditions judged from readings (offline/online come from the device status rule). */
export const READING_KINDS = ['voltage_drop', 'voltage_rise', 'limit_warning', 'limit_critical', 'consumption', 'weak_signal'] as const;
export type ReadingKind = (typeof READING_KINDS)[number];

/** Which way a value is worse: lower (a drop, a weak signal), higher (a rise, energy), farther from 230 V (limits). */
export type Worse = 'low' | 'high' | 'far';
export const WORSE: Record<ReadingKind | 'offline' | 'online', Worse> = {
  voltage_drop: 'low',
  voltage_rise: 'high',
  limit_warning: 'far',
  limit_critical: 'far',
  consumption: 'high',
  weak_signal: 'low',
  offline: 'high',
  online: 'high',
};

/** True when `candidate` is worse than `current` (any value is worse than none). */
export function isWorse(direction: Worse, candidate: number, current: number | null): boolean {
  if (current === null || Number.isNaN(current)) return true;
  if (direction === 'low') return candidate < current;
  if (direction === 'high') return candidate > current;
  return Math.abs(candidate - NOMINAL_VOLTAGE) > Math.abs(current - NOMINAL_VOLTAGE);
}

/** What one reading says about a condition: whether it holds, the value judged, its phase, the limit crossed. */
export interface Observation {
  active: boolean;
  value: number;
  phase: number | null;
  /** The limit in the value's unit (volts for voltage kinds). */
  threshold: number;
}

/** The thresholds the voltage rules use: the device's notification settings and limit values (% of 230 V). */
export interface VoltageSettings {
  dropPercent: number;
  risePercent: number;
  warningPercent: number;
  criticalPercent: number;
  /** Whether the device's type has limit values (a thermostat has none). */
  limits: boolean;
}

/** Lowest and highest phase voltage of a reading, with their phases (NaN when it carries no voltage). */
export interface VoltageExtremes {
  low: number;
  lowPhase: number;
  high: number;
  highPhase: number;
}

/**
 * Voltage conditions of one reading. A drop is the lowest of each phase's average and minimum below
 * 230 V × (1 − drop %); a rise the highest of each phase's average and maximum above 230 V × (1 + rise %);
 * the limit values are crossed when the voltage farthest from 230 V deviates by more than the warning
 * (critical) percentage, either way. Warning holds during critical too: both end when the voltage
 * returns, and a reading that crosses both at once raises them as one delivery.
 */
export function voltageObservations(v: VoltageExtremes, s: VoltageSettings): Partial<Record<ReadingKind, Observation>> {
  const out: Partial<Record<ReadingKind, Observation>> = {};
  if (Number.isNaN(v.low) || Number.isNaN(v.high)) return out;
  const dropAt = NOMINAL_VOLTAGE * (1 - s.dropPercent / 100);
  const riseAt = NOMINAL_VOLTAGE * (1 + s.risePercent / 100);
  out.voltage_drop = { active: v.low < dropAt, value: v.low, phase: v.lowPhase, threshold: round(dropAt) };
  out.voltage_rise = { active: v.high > riseAt, value: v.high, phase: v.highPhase, threshold: round(riseAt) };
  if (s.limits) {
    const lowDev = ((NOMINAL_VOLTAGE - v.low) / NOMINAL_VOLTAGE) * 100;
    const highDev = ((v.high - NOMINAL_VOLTAGE) / NOMINAL_VOLTAGE) * 100;
    const below = lowDev >= highDev;
    const dev = below ? lowDev : highDev;
    const value = below ? v.low : v.high;
    const phase = below ? v.lowPhase : v.highPhase;
    const at = (pct: number) => round(NOMINAL_VOLTAGE * (below ? 1 - pct / 100 : 1 + pct / 100));
    out.limit_warning = { active: dev > s.warningPercent, value, phase, threshold: at(s.warningPercent) };
    out.limit_critical = { active: dev > s.criticalPercent, value, phase, threshold: at(s.criticalPercent) };
  }
  return out;
}

/** The weak-signal condition of a reading's RSSI (the device list's rule: at or below −75 dBm). */
export function signalObservation(rssi: number): Observation {
  return { active: isWeakSignal(rssi), value: rssi, phase: null, threshold: -75 };
}

const round = (x: number) => Math.round(x * 10) / 10;

// ---------------------------------------------------------------- lifecycle

/** A condition's alarm as far as the lifecycle needs: whether one is open, and when the last one ended. */
export interface AlarmCursor {
  open: boolean;
  /** When the latest alarm of the kind ended (null: open, or none yet). */
  endedAt: number | null;
  /** Whether an alarm of the kind exists at all (one that ended can be reopened). */
  exists: boolean;
  worst: number | null;
}

export type Move = 'none' | 'raise' | 'reopen' | 'worse' | 'clear';

/**
 * How a condition's alarm moves at a reading: raised when the condition starts, made worse while it
 * holds, cleared when it ends. A condition that starts again within `flapMs` of the last alarm's end
 * (the notification interval) reopens that alarm instead of raising a new one: a flapping condition
 * stays one alarm.
 */
export function nextMove(a: AlarmCursor, active: boolean, value: number, ts: number, flapMs: number, worse: Worse): Move {
  if (active) {
    if (a.open) return isWorse(worse, value, a.worst) ? 'worse' : 'none';
    if (a.exists && a.endedAt !== null && ts - a.endedAt <= flapMs) return 'reopen';
    return 'raise';
  }
  return a.open ? 'clear' : 'none';
}

// ---------------------------------------------------------------- delivery

/** A new alarm found this long after its condition began is not pushed or mailed (old news; a device's buffer). */
export const LATE_AFTER_MS = 15 * 60_000;

export interface DeliveryContext {
  muteAll: boolean;
  disableAtNight: boolean;
  /** The owner's timezone (quiet hours are their 22:00–07:00). */
  timezone: string;
  intervalMs: number;
  /** When the condition began. */
  startedAt: number;
  /** When a notification of this kind of the device was last sent (pushed or mailed), or null. */
  lastSentAt: number | null;
  now: number;
}

/**
 * Why a new alarm is held (recorded, listed, not pushed or mailed), or null to deliver it now. Held
 * alarms are never sent later: a night's alarms do not arrive in a burst at 07:00.
 */
export function holdOf(c: DeliveryContext): NotificationHold | null {
  if (c.muteAll) return 'muted';
  if (c.now - c.startedAt > LATE_AFTER_MS) return 'late';
  if (c.disableAtNight && isNightTime(c.now, c.timezone)) return 'quietHours';
  if (c.lastSentAt !== null && c.now - c.lastSentAt < c.intervalMs) return 'interval';
  return null;
}

/** Kinds by how a delivery lists them: the most serious first. */
export const KIND_ORDER: readonly NotificationKind[] = [
  'limit_critical',
  'limit_warning',
  'voltage_drop',
  'voltage_rise',
  'offline',
  'consumption',
  'quality_week_failed',
  'weak_signal',
  'online',
];

// ---------------------------------------------------------------- consumption

/** A counter's state for steps: the last reading and the highest value since the last reset. */
interface CounterCursor {
  last: number;
  top: number;
}

/**
 * The energy of the current billing period, counted from the readings as they are committed (no history
 * is read again): it starts from the period's energy when the rule first sees the device (or 0 at a new
 * period) and adds each reading's step by the shared counter rules (a reset counts from zero, noise
 * adds nothing). A step across the period's start counts only its share after the start.
 */
export class ConsumptionMeter {
  private readonly counters = new Map<string, CounterCursor>();
  private lastTs = Number.NEGATIVE_INFINITY;

  constructor(
    public period: { start: number; end: number },
    public energy: number,
    private readonly rules: CounterRules,
  ) {}

  /**
   * The counters of the newest reading the starting figure includes: the next reading's step from them is
   * counted, and readings up to `ts` (in the figure already) are not counted again.
   */
  seed(ts: number, values: Readonly<Record<string, number>>, names: readonly string[]): void {
    for (const name of names) {
      const v = values[name];
      if (v !== undefined) this.counters.set(name, { last: v, top: v });
    }
    this.lastTs = ts;
  }

  /**
   * Adds a reading's counters (sources: the energy3phases total, or each phase's counter; `values[k]`
   * NaN when the reading lacks it). Returns the period the reading belongs to before adding, so the caller
   * sees a period change (`rolled`).
   */
  add(
    ts: number,
    names: readonly string[],
    values: readonly number[],
    periodOf: (ts: number) => { start: number; end: number },
  ): { rolled: boolean } {
    let rolled = false;
    if (ts <= this.lastTs) return { rolled };
    if (ts >= this.period.end) {
      this.period = periodOf(ts);
      this.energy = 0;
      rolled = true;
    }
    for (let k = 0; k < names.length; k++) {
      const v = values[k] as number;
      if (Number.isNaN(v)) continue;
      const name = names[k] as string;
      const c = this.counters.get(name);
      if (!c) {
        this.counters.set(name, { last: v, top: v });
        continue;
      }
      const e = stepEnergy(c.last, c.top, v, this.rules);
      if (e > 0 && ts > this.period.start) {
        // Steps accrue linearly between readings: only the part after the period's start is this period's.
        const share = rolled && this.lastTs < this.period.start && ts > this.lastTs ? (ts - this.period.start) / (ts - this.lastTs) : 1;
        this.energy += e * Math.min(1, Math.max(0, share));
      }
      c.top = v < this.rules.jitterRatio * c.last ? v : Math.max(c.top, v);
      c.last = v;
    }
    this.lastTs = ts;
    return { rolled };
  }
}
