import { describe, expect, it } from 'vitest';
import { type AlertState, alertsFor } from './device-alerts';

const state = (over: Partial<AlertState> = {}): AlertState => ({
  id: 1,
  name: 'Meter',
  offline: false,
  weakSignal: false,
  everSeen: true,
  ...over,
});

describe('alertsFor', () => {
  it('tells an offline or weak device once, however often the list is refetched', () => {
    let shown = new Set<string>();
    const first = alertsFor(shown, state({ offline: true, weakSignal: true }));
    expect(first.show).toEqual(['offline', 'weakSignal']);
    shown = first.next;
    for (let i = 0; i < 3; i++) {
      const again = alertsFor(shown, state({ offline: true, weakSignal: true }));
      expect(again.show).toEqual([]);
      shown = again.next;
    }
  });

  it('tells it again after the condition cleared and came back', () => {
    let shown = alertsFor(new Set(), state({ offline: true })).next;
    shown = alertsFor(shown, state()).next;
    expect(shown.size).toBe(0);
    expect(alertsFor(shown, state({ offline: true })).show).toEqual(['offline']);
  });

  it('does not call a device that never sent a reading offline, and keeps devices apart', () => {
    expect(alertsFor(new Set(), state({ offline: true, everSeen: false })).show).toEqual([]);
    const shown = alertsFor(new Set(), state({ id: 1, offline: true })).next;
    expect(alertsFor(shown, state({ id: 2, offline: true })).show).toEqual(['offline']);
  });
});
