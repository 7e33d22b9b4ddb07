import {
  DAY_TYPES,
  GROUP_AREAS,
  type HolidayCalendar,
  isoDate,
  type Tariff,
  type TariffArea,
  type TariffClock,
  type TariffGroup,
  type TariffPresetInfo,
  type TariffRequest,
  tariffRequestSchema,
  type ZoneSchedule,
} from '@phasewatch/shared';
import { type NumberText, numberOfText } from '@/lib/number-input';

/** A price list as the form edits it: what each number field holds (a number, or its text; '' when empty). */
export interface PriceDraft {
  /** Stable key of the row while dates change. */
  key: string;
  validFrom: string;
  area1: NumberText;
  area2: NumberText;
  area3: NumberText;
  fixedMonthly: NumberText;
  /** The energy part of each area's price (issue 33; '' or absent: not entered). */
  energyArea1?: NumberText;
  energyArea2?: NumberText;
  energyArea3?: NumberText;
}

export interface TariffDraft {
  name: string;
  group: TariffGroup;
  presetId: string | null;
  clock: TariffClock;
  currency: string;
  holidayCalendar: HolidayCalendar | null;
  schedule: ZoneSchedule;
  /** Stable keys of the seasons while the form edits them (not sent). */
  seasonKeys: string[];
  prices: PriceDraft[];
}

let rows = 0;
const rowKey = () => `p${rows++}`;

/** The form's draft of a stored tariff. */
export function draftOf(t: Tariff): TariffDraft {
  return {
    name: t.name,
    group: t.group,
    presetId: t.presetId,
    clock: t.clock,
    currency: t.currency,
    holidayCalendar: t.holidayCalendar,
    schedule: structuredClone(t.schedule) as ZoneSchedule,
    seasonKeys: t.schedule.seasons.map(rowKey),
    prices: t.prices.map((p) => ({
      key: rowKey(),
      validFrom: p.validFrom,
      area1: p.area1,
      area2: p.area2 ?? '',
      area3: p.area3 ?? '',
      fixedMonthly: p.fixedMonthly,
      energyArea1: p.energyArea1 ?? '',
      energyArea2: p.energyArea2 ?? '',
      energyArea3: p.energyArea3 ?? '',
    })),
  };
}

/** A new tariff from a preset: its name, hours, clock and holidays; one empty price list from `since`. */
export function newDraft(preset: TariffPresetInfo, since: string): TariffDraft {
  return applyPreset(
    {
      name: '',
      group: preset.group,
      presetId: null,
      clock: 'local',
      currency: preset.currency,
      holidayCalendar: null,
      schedule: structuredClone(preset.schedule) as ZoneSchedule,
      seasonKeys: preset.schedule.seasons.map(rowKey),
      prices: [{ key: rowKey(), validFrom: since, area1: '', area2: '', area3: '', fixedMonthly: '' }],
    },
    preset,
  );
}

/** Takes a preset's group, hours, clock and holiday calendar (and its name while the name is empty or a preset's). */
export function applyPreset(d: TariffDraft, p: TariffPresetInfo, presets: readonly TariffPresetInfo[] = []): TariffDraft {
  const namedAfterPreset = d.name === '' || presets.some((x) => `${x.operator} ${x.group}` === d.name);
  return {
    ...d,
    name: namedAfterPreset ? `${p.operator} ${p.group}` : d.name,
    group: p.group,
    presetId: p.id,
    clock: p.clock,
    currency: d.prices.some((x) => x.area1 !== '') ? d.currency : p.currency,
    holidayCalendar: p.holidayCalendar,
    schedule: structuredClone(p.schedule) as ZoneSchedule,
    seasonKeys: p.schedule.seasons.map(rowKey),
  };
}

/**
 * Another group: hours in areas the group lacks go to its first area, a preset of another group is let
 * go (the hours stay as they were, now custom).
 */
export function changeGroup(d: TariffDraft, group: TariffGroup): TariffDraft {
  const areas = GROUP_AREAS[group];
  const fit = (a: TariffArea): TariffArea => (areas.includes(a) ? a : (areas[0] ?? 1));
  return {
    ...d,
    group,
    presetId: null,
    schedule: {
      seasons: d.schedule.seasons.map((s) => ({
        ...s,
        days: Object.fromEntries(DAY_TYPES.map((t) => [t, s.days[t].map(fit)])) as typeof s.days,
      })),
    },
  };
}

/** Another season (a copy of the last, named `name`), or the schedule without season `key`. */
export function addSeason(d: TariffDraft, name: string): TariffDraft {
  const last = d.schedule.seasons.at(-1);
  if (!last) return d;
  return {
    ...d,
    presetId: null,
    schedule: { seasons: [...d.schedule.seasons, { ...structuredClone(last), name }] },
    seasonKeys: [...d.seasonKeys, rowKey()],
  };
}
export function removeSeason(d: TariffDraft, key: string): TariffDraft {
  const i = d.seasonKeys.indexOf(key);
  return {
    ...d,
    presetId: null,
    schedule: { seasons: d.schedule.seasons.filter((_, k) => k !== i) },
    seasonKeys: d.seasonKeys.filter((k) => k !== key),
  };
}

/**
 * A new price list after the latest one, its prices copied: from `today`, or the day after the latest list
 * when that starts today or later (never a date another list has).
 */
export function addPrice(d: TariffDraft, today: string): TariffDraft {
  const last = [...d.prices].sort((a, b) => (a.validFrom < b.validFrom ? -1 : 1)).at(-1);
  let validFrom = today;
  if (last && last.validFrom >= today && /^\d{4}-\d{2}-\d{2}$/.test(last.validFrom)) {
    const [y, m, day] = last.validFrom.split('-').map(Number) as [number, number, number];
    validFrom = isoDate(y, m, day + 1);
  }
  const row: PriceDraft = last
    ? { ...last, key: rowKey(), validFrom }
    : { key: rowKey(), validFrom, area1: '', area2: '', area3: '', fixedMonthly: '' };
  return { ...d, prices: [...d.prices, row] };
}

/** The energy parts entered (issue 33): null where empty or for an area the group does not bill. */
function energyParts(p: PriceDraft, areas: readonly number[]) {
  const part = (a: 1 | 2 | 3) => {
    const v = p[`energyArea${a}`];
    return areas.includes(a) && v !== undefined && v !== '' ? numberOfText(v) : null;
  };
  const out: { energyArea1?: number; energyArea2?: number; energyArea3?: number } = {};
  for (const a of [1, 2, 3] as const) {
    const v = part(a);
    if (v !== null) out[`energyArea${a}`] = v;
  }
  return out;
}

/** The request the form sends: areas the group does not bill are null. */
export function requestOf(d: TariffDraft): TariffRequest {
  const areas = GROUP_AREAS[d.group];
  return {
    name: d.name,
    group: d.group,
    presetId: d.presetId,
    clock: d.clock,
    currency: d.currency,
    holidayCalendar: d.holidayCalendar,
    schedule: d.schedule,
    prices: d.prices.map((p) => ({
      validFrom: p.validFrom,
      area1: numberOfText(p.area1),
      area2: areas.includes(2) ? numberOfText(p.area2) : null,
      area3: areas.includes(3) ? numberOfText(p.area3) : null,
      fixedMonthly: numberOfText(p.fixedMonthly),
      ...energyParts(p, areas),
    })),
  };
}

/** Problems of the draft by path (`name`, `prices.1.area2`, `schedule.seasons`), as message keys. */
export function draftIssues(d: TariffDraft): Record<string, string> {
  const r = tariffRequestSchema.safeParse(requestOf(d));
  const out: Record<string, string> = {};
  if (r.success) return out;
  for (const i of r.error.issues) {
    const path = i.path.join('.');
    out[path] ??= i.message;
  }
  return out;
}
