import { type CounterRules, DEFAULT_COUNTER_RULES, isReset, stepEnergy } from './counter.js';

/**
 * Net (balanced) three-phase energy: the counters a utility's bidirectional meter bills.
 *
 * A three-phase utility meter sums the phases before it counts ("vector summation", Polish
 * *bilansowanie międzyfazowe*, German *Saldierung*): at each instant the net power P1 + P2 + P3 goes to
 * its import register when positive and to its export register when negative. A per-phase meter counts
 * each phase on its own, so with solar feeding phase 1 and a load on phase 2 the sums of its per-phase
 * counters show both import and export that the utility never sees.
 *
 * The formula, per interval between two consecutive readings of the per-phase counters:
 *
 *     ΔIk, ΔEk = energy of that step of eai<k> and eae<k>   (the counter rules of counter.ts: a reset counts
 *                                                          from zero, a small drop is noise and adds nothing)
 *     n        = Σk (ΔIk − ΔEk)                           (net energy of the interval, kWh)
 *     balance        += max(n, 0)                          (netted import)
 *     balance_export += max(−n, 0)                         (netted export)
 *
 * That is the meter's own rule at the resolution of the readings (5 s for a polled device, a minute for
 * history filled from a device's store). Over one interval it is exact; across intervals it can only be as
 * fine as the readings are, so a device silent for an hour nets that hour as a whole.
 */

/** A counter's state between readings: the last reading and the highest value seen since its last reset. */
interface CounterTrack {
  last: number;
  top: number;
}

/** What the balance of one device carries from reading to reading. */
export interface BalanceState {
  /** Netted import (kWh), stored as `balance`. */
  import: number;
  /** Netted export (kWh), stored as `balance_export`. */
  export: number;
  /** The per-phase counters' last readings, by parameter name (`eai1` … `eae3`). */
  counters: Record<string, CounterTrack>;
}

const PHASES = [1, 2, 3] as const;

/** A balance starting at the given counters (kWh), or zero for a device seen the first time. */
export function startBalance(start: { import: number; export: number } = { import: 0, export: 0 }): BalanceState {
  return { import: start.import, export: start.export, counters: {} };
}

/**
 * Energy of a counter's step from its tracked state to `next` (0 for the first reading seen), and the new
 * state in place.
 */
function step(counters: Record<string, CounterTrack>, name: string, next: number, rules: CounterRules): number {
  const track = counters[name];
  if (!track) {
    counters[name] = { last: next, top: next };
    return 0;
  }
  const e = stepEnergy(track.last, track.top, next, rules);
  track.top = isReset(track.last, next, rules) ? next : Math.max(track.top, next);
  track.last = next;
  return e;
}

/**
 * Net energy of the interval ending at `values` (Σ phases of import steps minus export steps, kWh), with
 * the counters' state moved on; null when the reading has no phase with both counters (nothing to net).
 */
export function netEnergyStep(
  state: BalanceState,
  values: Readonly<Record<string, number>>,
  rules: CounterRules = DEFAULT_COUNTER_RULES,
): number | null {
  let net = 0;
  let phases = 0;
  for (const k of PHASES) {
    const i = values[`eai${k}`];
    const e = values[`eae${k}`];
    if (i === undefined || e === undefined) continue;
    phases++;
    net += step(state.counters, `eai${k}`, i, rules) - step(state.counters, `eae${k}`, e, rules);
  }
  return phases === 0 ? null : net;
}

/**
 * Adds a reading's interval to the balance (in place) and answers the values to store with it:
 * `balance` and `balance_export` (kWh), or an empty object when the reading carries no per-phase pair of
 * import and export counters.
 */
export function stepBalance(
  state: BalanceState,
  values: Readonly<Record<string, number>>,
  rules: CounterRules = DEFAULT_COUNTER_RULES,
): { balance?: number; balance_export?: number } {
  const net = netEnergyStep(state, values, rules);
  if (net === null) return {};
  if (net > 0) state.import += net;
  else state.export -= net;
  // Rounded to 1 mWh like every energy figure: float sums of many small steps would print 12.300000000001.
  return { balance: Math.round(state.import * 1e6) / 1e6, balance_export: Math.round(state.export * 1e6) / 1e6 };
}
