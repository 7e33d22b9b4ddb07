import { DEFAULT_COUNTER_RULES } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import {
  type AlarmCursor,
  ConsumptionMeter,
  type DeliveryContext,
  holdOf,
  isWorse,
  LATE_AFTER_MS,
  nextMove,
  signalObservation,
  voltageObservations,
} from './notifications.rules.js';

const settings = { dropPercent: 10, risePercent: 10, warningPercent: 10, criticalPercent: 20, limits: true };
const at = (low: number, high = 231, lowPhase = 1, highPhase = 1) => ({ low, lowPhase, high, highPhase });

describe('voltage rules', () => {
  it('a drop is below 230 V × (1 − drop %), strictly', () => {
    expect(voltageObservations(at(207.1), settings).voltage_drop).toMatchObject({ active: false, threshold: 207 });
    expect(voltageObservations(at(207), settings).voltage_drop?.active).toBe(false);
    expect(voltageObservations(at(206.9, 231, 2), settings).voltage_drop).toEqual({ active: true, value: 206.9, phase: 2, threshold: 207 });
  });

  it('a rise is above 230 V × (1 + rise %)', () => {
    expect(voltageObservations(at(229, 253), settings).voltage_rise?.active).toBe(false);
    expect(voltageObservations(at(229, 253.1, 1, 3), settings).voltage_rise).toEqual({
      active: true,
      value: 253.1,
      phase: 3,
      threshold: 253,
    });
  });

  it('limit values: warning beyond its percentage either way, critical beyond its own; warning holds during critical', () => {
    const warn = voltageObservations(at(200), settings);
    expect(warn.limit_warning).toEqual({ active: true, value: 200, phase: 1, threshold: 207 });
    expect(warn.limit_critical?.active).toBe(false);
    const crit = voltageObservations(at(180), settings);
    expect(crit.limit_warning?.active).toBe(true);
    expect(crit.limit_critical).toEqual({ active: true, value: 180, phase: 1, threshold: 184 });
    // Above nominal: the side farthest from 230 V is judged, with that side's threshold.
    const high = voltageObservations(at(229, 260, 1, 2), settings);
    expect(high.limit_warning).toEqual({ active: true, value: 260, phase: 2, threshold: 253 });
  });

  it('a device type without limit values (a thermostat) is judged on drop and rise only', () => {
    const obs = voltageObservations(at(150), { ...settings, limits: false });
    expect(obs.voltage_drop?.active).toBe(true);
    expect(obs.limit_warning).toBeUndefined();
  });

  it('a reading without voltages says nothing', () => {
    expect(voltageObservations({ low: Number.NaN, lowPhase: 0, high: Number.NaN, highPhase: 0 }, settings)).toEqual({});
  });

  it('weak signal at or below −75 dBm', () => {
    expect(signalObservation(-75).active).toBe(true);
    expect(signalObservation(-74).active).toBe(false);
  });

  it('worse means lower, higher, or farther from 230 V', () => {
    expect(isWorse('low', 190, 200)).toBe(true);
    expect(isWorse('high', 190, 200)).toBe(false);
    expect(isWorse('far', 265, 200)).toBe(true);
    expect(isWorse('far', 240, 200)).toBe(false);
    expect(isWorse('low', 5, null)).toBe(true);
  });
});

describe('alarm lifecycle', () => {
  const none: AlarmCursor = { open: false, endedAt: null, exists: false, worst: null };
  const HOUR = 3_600_000;

  it('raises when the condition starts, makes worse while it holds, clears when it ends', () => {
    expect(nextMove(none, true, 200, 0, HOUR, 'low')).toBe('raise');
    const open = { open: true, endedAt: null, exists: true, worst: 200 };
    expect(nextMove(open, true, 199, 1, HOUR, 'low')).toBe('worse');
    expect(nextMove(open, true, 205, 1, HOUR, 'low')).toBe('none');
    expect(nextMove(open, false, 230, 2, HOUR, 'low')).toBe('clear');
    expect(nextMove(none, false, 230, 2, HOUR, 'low')).toBe('none');
  });

  it('a condition that flaps within the interval reopens its alarm; after the interval it is a new one', () => {
    const ended = { open: false, endedAt: 10 * 60_000, exists: true, worst: 200 };
    expect(nextMove(ended, true, 201, 10 * 60_000 + HOUR, HOUR, 'low')).toBe('reopen');
    expect(nextMove(ended, true, 201, 10 * 60_000 + HOUR + 1, HOUR, 'low')).toBe('raise');
    // A rule without flapping (a billing period's energy) raises anew.
    expect(nextMove(ended, true, 201, 10 * 60_000 + 1, 0, 'high')).toBe('raise');
  });
});

describe('delivery: interval, quiet hours, mute, late', () => {
  const WARSAW = 'Europe/Warsaw';
  const base = (now: number): DeliveryContext => ({
    muteAll: false,
    disableAtNight: true,
    timezone: WARSAW,
    intervalMs: 60 * 60_000,
    startedAt: now - 1000,
    lastSentAt: null,
    now,
  });
  // 2026-01-15 in Warsaw (UTC+1).
  const local = (h: number, m = 0, day = 15) => Date.UTC(2026, 0, day, h - 1, m);

  it('delivers in the day, holds between 22:00 and 07:00 local, across midnight', () => {
    expect(holdOf(base(local(12)))).toBeNull();
    expect(holdOf(base(local(21, 59)))).toBeNull();
    expect(holdOf(base(local(22)))).toBe('quietHours');
    expect(holdOf(base(Date.UTC(2026, 0, 15, 23, 30)))).toBe('quietHours'); // 00:30 on the 16th
    expect(holdOf(base(local(6, 59, 16)))).toBe('quietHours');
    expect(holdOf(base(local(7, 0, 16)))).toBeNull();
    expect(holdOf({ ...base(local(23)), disableAtNight: false })).toBeNull();
  });

  it('keeps 22:00–07:00 by the local clock across a DST change', () => {
    // Spring, 2026-03-29: 06:30 CEST is 04:30 UTC (held); 07:05 CEST is 05:05 UTC (sent).
    expect(holdOf(base(Date.UTC(2026, 2, 29, 4, 30)))).toBe('quietHours');
    expect(holdOf(base(Date.UTC(2026, 2, 29, 5, 5)))).toBeNull();
    // The same UTC time the day before was 05:05 CET, still night.
    expect(holdOf(base(Date.UTC(2026, 2, 28, 5, 5)))).toBe('quietHours');
    // Autumn, 2026-10-25: 06:30 CET is 05:30 UTC (held), 07:00 CET 06:00 UTC (sent); 21:30 CEST the evening before is sent.
    expect(holdOf(base(Date.UTC(2026, 9, 25, 5, 30)))).toBe('quietHours');
    expect(holdOf(base(Date.UTC(2026, 9, 25, 6, 0)))).toBeNull();
    expect(holdOf(base(Date.UTC(2026, 9, 24, 19, 30)))).toBeNull();
  });

  it('holds every delivery of a muted device, day or night', () => {
    expect(holdOf({ ...base(local(12)), muteAll: true })).toBe('muted');
    expect(holdOf({ ...base(local(23)), muteAll: true })).toBe('muted');
  });

  it('holds an alarm whose condition began long before it was found (a device sending its buffer)', () => {
    const now = local(12);
    expect(holdOf({ ...base(now), startedAt: now - LATE_AFTER_MS })).toBeNull();
    expect(holdOf({ ...base(now), startedAt: now - LATE_AFTER_MS - 1 })).toBe('late');
  });

  it('sends one notification per kind per interval', () => {
    const now = local(12);
    expect(holdOf({ ...base(now), lastSentAt: now - 59 * 60_000 })).toBe('interval');
    expect(holdOf({ ...base(now), lastSentAt: now - 60 * 60_000 })).toBeNull();
  });
});

describe('billing-period energy from committed readings', () => {
  const period = { start: 1_000_000, end: 2_000_000 };
  const next = (ts: number) => ({ start: Math.floor(ts / 1_000_000) * 1_000_000, end: (Math.floor(ts / 1_000_000) + 1) * 1_000_000 });

  it('adds counter steps to the stored figure; noise adds nothing; a reset counts from zero', () => {
    const m = new ConsumptionMeter(period, 5, DEFAULT_COUNTER_RULES);
    m.add(1_100_000, ['eai1'], [100], next); // first reading: the baseline includes it
    expect(m.energy).toBe(5);
    m.add(1_200_000, ['eai1'], [102], next);
    expect(m.energy).toBeCloseTo(7);
    m.add(1_300_000, ['eai1'], [101.9], next); // noise
    m.add(1_400_000, ['eai1'], [102.5], next); // climbs back past the top only by 0.5
    expect(m.energy).toBeCloseTo(7.5);
    m.add(1_500_000, ['eai1'], [3], next); // reset: counted from zero
    expect(m.energy).toBeCloseTo(10.5);
  });

  it('starts from the stored figure and the newest reading it includes: readings up to it are not counted again', () => {
    const m = new ConsumptionMeter(period, 4, DEFAULT_COUNTER_RULES);
    m.seed(1_200_000, { eai1: 50, eai2: 60 }, ['eai1', 'eai2', 'eai3']);
    m.add(1_150_000, ['eai1'], [49], next);
    m.add(1_200_000, ['eai1'], [50], next);
    expect(m.energy).toBe(4);
    m.add(1_300_000, ['eai1', 'eai2'], [51, 60.5], next);
    expect(m.energy).toBeCloseTo(5.5);
  });

  it('sums phase counters and starts a new period at zero, with the share of the step after its start', () => {
    const m = new ConsumptionMeter(period, 0, DEFAULT_COUNTER_RULES);
    m.add(1_800_000, ['eai1', 'eai2'], [10, 20], next);
    m.add(1_900_000, ['eai1', 'eai2'], [11, 21], next);
    expect(m.energy).toBeCloseTo(2);
    const { rolled } = m.add(2_100_000, ['eai1', 'eai2'], [13, 23], next);
    expect(rolled).toBe(true);
    expect(m.period).toEqual({ start: 2_000_000, end: 3_000_000 });
    // 4 kWh over 1,900,000 → 2,100,000: half of it after the new period's start.
    expect(m.energy).toBeCloseTo(2);
  });
});
