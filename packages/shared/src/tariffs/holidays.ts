import Holidays from 'date-holidays';
import { zonedTimeToUtc } from '../energy/zoned-time.js';
import { BoundedMap } from '../util/bounded-map.js';
import type { HolidayCheck } from './cost.js';
import type { HolidayCalendar } from './tariff.schema.js';

/**
 * Statutory holidays from date-holidays (maintained, movable feasts computed, Poland's 24 December from
 * 2025 on). A module of its own, imported as `@phasewatch/shared/holidays` by the server only: the
 * library carries every country's rules and stays out of the web app's chunks (the web asks the API).
 */

/** The zone a calendar's dates are local to. */
const ZONES: Record<HolidayCalendar, string> = { PL: 'Europe/Warsaw', TR: 'Europe/Istanbul' };

const instances = new Map<string, Holidays>();
function instance(calendar: HolidayCalendar): Holidays {
  let h = instances.get(calendar);
  if (!h) {
    h = new Holidays(calendar, { types: ['public'] });
    instances.set(calendar, h);
  }
  return h;
}

export interface Holiday {
  date: string;
  name: string;
}

const years = new BoundedMap<string, Holiday[]>(256);

/**
 * Days off by law (date-holidays type `public`) of a calendar's year, in date order, named in `lang`
 * (English when the calendar has no names in it). A holiday of several days gives each day; a day counts
 * when the holiday holds at its local noon (a Turkish bayram's half-day eve does not).
 */
export function holidaysOf(calendar: HolidayCalendar, year: number, lang = 'en'): Holiday[] {
  const key = `${calendar}:${year}:${lang}`;
  const cached = years.get(key);
  if (cached) return cached;
  const hd = instance(calendar);
  const language = hd.getLanguages().includes(lang) ? lang : 'en';
  const zone = ZONES[calendar];
  const out = new Map<string, Holiday>();
  for (const h of hd.getHolidays(year, language)) {
    if (h.type !== 'public') continue;
    const [y, m, d] = h.date.slice(0, 10).split('-').map(Number) as [number, number, number];
    for (let k = -1; k < 10; k++) {
      const noon = zonedTimeToUtc(zone, y, m, d + k, 12);
      if (noon < h.start.getTime() || noon >= h.end.getTime()) continue;
      const date = new Date(Date.UTC(y, m - 1, d + k)).toISOString().slice(0, 10);
      if (date.startsWith(String(year)) && !out.has(date)) out.set(date, { date, name: h.name });
    }
  }
  const list = [...out.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  years.set(key, list);
  return list;
}

/** Whether a date `YYYY-MM-DD` is a statutory holiday of the calendar (never, without one). */
export function holidayCheck(calendar: HolidayCalendar | null): HolidayCheck {
  if (!calendar) return () => false;
  const sets = new Map<number, Set<string>>();
  return (date) => {
    const year = Number(date.slice(0, 4));
    let set = sets.get(year);
    if (!set) {
      set = new Set(holidaysOf(calendar, year).map((h) => h.date));
      sets.set(year, set);
    }
    return set.has(date);
  };
}
