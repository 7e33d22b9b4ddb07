import { billingPeriod } from '@phasewatch/shared';
import type { Storage } from '../../storage/database.js';
import { latestRawReadings, type ReadingsService } from '../readings/index.js';
import { energySources, type PeriodEnergy, type RuleDevice } from './notifications.engine.js';

/**
 * The energy of a device's billing period as the rules read it (`AlarmEngine`'s `periodEnergy`): the
 * period's local days only (stored day rollups, the current hour from raw rows), not the device's whole
 * history as the energy answer reads it; with the device's newest raw reading.
 */
export function billingPeriodEnergy(readings: ReadingsService, storage: Storage) {
  return async (d: RuleDevice, now: number): Promise<PeriodEnergy> => {
    const period = billingPeriod(now, d.timezone, d.billingStartDate, d.billingPeriodMonths);
    const sources = energySources(d.direction);
    const days = await readings.readings(d.id, d.timezone, {
      from: period.start,
      to: Math.max(period.start + 1, now + 1),
      interval: '24h',
      params: sources,
    });
    const energyOf = (name: string): number | null => {
      const s = days.series[name];
      if (s?.kind !== 'counter') return null;
      let e = 0;
      for (const v of s.delta) if (!Number.isNaN(v)) e += v;
      return e;
    };
    const [total, ...phases] = sources;
    const energyKwh = energyOf(total as string) ?? phases.reduce((a, p) => a + (energyOf(p) ?? 0), 0);
    // After the energy: a reading committed in between is in the newest, not the energy, and is not counted twice.
    const latest = (await latestRawReadings(storage.db, storage.dialect, d.userId, d.id)).get(d.id) ?? null;
    return { energyKwh, latest };
  };
}
