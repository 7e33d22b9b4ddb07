import { type CostTariff, type HolidayCheck, hoursOfDate, priceOn } from '../tariffs/cost.js';
import type { TariffArea, TariffPrice } from '../tariffs/tariff.schema.js';
import { offsetLookup } from './netting.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The energy part of an area's price, or the whole price (estimated) where the list has none. */
export function energyPartOf(p: TariffPrice, area: TariffArea): { price: number; estimated: boolean } {
  const part = area === 1 ? p.energyArea1 : area === 2 ? p.energyArea2 : p.energyArea3;
  if (typeof part === 'number') return { price: part, estimated: false };
  const whole = (area === 1 ? p.area1 : area === 2 ? p.area2 : p.area3) ?? p.area1;
  return { price: whole, estimated: true };
}

/**
 * The energy part of the price in force at the start of a clock hour under the grid meter's tariff: the
 * hour's zone on the tariff's clock (as in tariffs/cost.ts) and the price list valid on its local date.
 * Null before the first price list. Zones and lists are looked up once per clock date.
 */
export function energyPriceOfHour(
  tariff: CostTariff,
  tz: string,
  isHoliday: HolidayCheck,
): (hourStart: number) => { price: number; estimated: boolean } | null {
  const offsetOf = offsetLookup(tz);
  const lists = new Map<number, TariffPrice | undefined>();
  const byDate = new Map<number, { hours: readonly TariffArea[] }>();
  return (hourStart) => {
    const localOffset = offsetOf(hourStart);
    const wall = hourStart + (tariff.clock === 'cet' ? HOUR : localOffset);
    const d = Math.floor(wall / DAY);
    let e = byDate.get(d);
    if (!e) {
      const date = new Date(d * DAY).toISOString().slice(0, 10);
      e = { hours: hoursOfDate(tariff.schedule, date, isHoliday) };
      byDate.set(d, e);
    }
    // The price list follows the location's local date (like tariffCost), the zone the tariff's clock.
    const localDay = Math.floor((hourStart + localOffset) / DAY);
    let list = lists.get(localDay);
    if (!lists.has(localDay)) {
      list = priceOn(tariff.prices, new Date(localDay * DAY).toISOString().slice(0, 10));
      lists.set(localDay, list);
    }
    if (!list) return null;
    const area = e.hours[Math.floor((wall - d * DAY) / HOUR)] as TariffArea;
    return energyPartOf(list, area);
  };
}
