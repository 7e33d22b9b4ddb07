import {
  type DayHours,
  type DayType,
  type HolidayCalendar,
  type ParsedTariffRequest,
  scheduleAreas,
  type TariffArea,
  type TariffClock,
  type TariffGroup,
  type TariffPrice,
  type ZoneSchedule,
  type ZoneSeason,
} from './tariff.schema.js';

/**
 * Editable presets per distribution operator and group, from the 2026 tariffs in
 * `shared/tariffs/tariff-schedules.md` (§1–§4; sources [S1]–[S15] there). Intervals are half-open local
 * hours `[start, end)`; ranges over midnight are split per calendar day, as the tariffs evaluate them.
 * What the note marks unconfirmed is carried in `notes` and shown so in the app.
 */

/** Something about a preset the app must say: keys of `tariffs.presetNotes.*` in the web catalogues. */
export type PresetNote =
  /** Hours from third-party sources only (Enea, Stoen). */
  | 'secondarySources'
  /** Only one secondary source. */
  | 'singleSource'
  /** Whether the operator's meters keep winter time is not known; `local` assumed. */
  | 'clockUnconfirmed'
  /** The winter-time clock rule is reported by secondary sources only. */
  | 'clockSecondary'
  /** Enea's tariff gives a rule (8 night hours within 22–07 and 2 within 13–17); the operator sets each customer's hours. */
  | 'eneaRule'
  /** Sources disagree whether Stoen's G12 puts Sundays and holidays into the night zone. */
  | 'stoenSundays'
  /** G12as bills its cheap night rate only above last year's night consumption of the same period. */
  | 'g12asBaseline'
  /** The EPDK decision of 2016; that it still applies in 2025–26 is unconfirmed (nothing contradicts it). */
  | 'trStillInForce';

/** Notes that make a preset "unconfirmed" in the app. */
export const UNCONFIRMED_NOTES: ReadonlySet<PresetNote> = new Set([
  'secondarySources',
  'singleSource',
  'clockUnconfirmed',
  'clockSecondary',
  'eneaRule',
  'stoenSundays',
  'trStillInForce',
]);

/** Simulated reference prices (per kWh, and the monthly fee) the advisor uses where the user has none. */
export interface ReferencePrices {
  area1: number;
  area2: number | null;
  area3: number | null;
  fixedMonthly: number;
}

export interface TariffPreset {
  /** `<operator>-<group>`, lower case. */
  id: string;
  /** Short operator name (`TAURON`, `EPDK` for the Turkish national rule). */
  operator: string;
  operatorName: string;
  country: 'PL' | 'TR';
  group: TariffGroup;
  /** First day of the tariff the hours were read from. */
  validFrom: string;
  holidayCalendar: HolidayCalendar | null;
  /** The operator's meter clock where the source confirms it, else `local`. */
  clock: TariffClock;
  /** How sure the hours are: the operator's own tariff text, or third-party sources only. */
  confidence: 'primary' | 'secondary';
  notes: PresetNote[];
  /** Names the tariff gives its zones (its own language). */
  zoneNames: Partial<Record<TariffArea, string>>;
  schedule: ZoneSchedule;
  currency: string;
  referencePrices: ReferencePrices;
  source: string;
}

type Interval = readonly [number, number];

/** A day of 24 hours in `base`, with the given intervals in other areas. */
function day(base: TariffArea, others: Partial<Record<TariffArea, readonly Interval[]>> = {}): DayHours {
  const out: DayHours = Array.from({ length: 24 }, () => base);
  for (const [a, ranges] of Object.entries(others) as [string, readonly Interval[]][]) {
    for (const [s, e] of ranges) for (let h = s; h < e; h++) out[h] = Number(a) as TariffArea;
  }
  return out;
}

/** The same day on every day type. */
const everyDay = (d: DayHours): Record<DayType, DayHours> => ({ weekday: d, saturday: d, sunday: d, holiday: d });
/** Working days as given; Saturdays, Sundays and holidays entirely in `offPeak`. */
const weekdaysOnly = (d: DayHours, offPeak: TariffArea = 2): Record<DayType, DayHours> => ({
  weekday: d,
  saturday: day(offPeak),
  sunday: day(offPeak),
  holiday: day(offPeak),
});
const allYear = (days: Record<DayType, DayHours>): ZoneSchedule => ({ seasons: [{ name: 'all-year', from: '01-01', to: '12-31', days }] });
/** PGE and TAURON seasons: summer 1 April–30 September, winter 1 October–31 March, by calendar date. */
const summerWinter = (summer: Record<DayType, DayHours>, winter: Record<DayType, DayHours>): ZoneSchedule => ({
  seasons: [
    { name: 'summer', from: '04-01', to: '09-30', days: summer } satisfies ZoneSeason,
    { name: 'winter', from: '10-01', to: '03-31', days: winter } satisfies ZoneSeason,
  ],
});

/** G12 13–15 and 22–06 cheap (TAURON, Energa; Enea's commonly reported hours; Stoen reported). */
const G12_CLASSIC = day(1, {
  2: [
    [0, 6],
    [13, 15],
    [22, 24],
  ],
});
const G11_DAY = day(1);
const G12AS_DAY = day(1, {
  2: [
    [0, 6],
    [22, 24],
  ],
});

const REFERENCE: Record<TariffGroup, ReferencePrices> = {
  G11: { area1: 1.1, area2: null, area3: null, fixedMonthly: 35 },
  G12: { area1: 1.25, area2: 0.72, area3: null, fixedMonthly: 38 },
  G12as: { area1: 1.18, area2: 0.65, area3: null, fixedMonthly: 38 },
  G12n: { area1: 1.2, area2: 0.7, area3: null, fixedMonthly: 38 },
  G12r: { area1: 1.27, area2: 0.74, area3: null, fixedMonthly: 38 },
  G12w: { area1: 1.28, area2: 0.75, area3: null, fixedMonthly: 38 },
  G13: { area1: 1.22, area2: 0.78, area3: 1.55, fixedMonthly: 40 },
  T1: { area1: 2.59, area2: null, area3: null, fixedMonthly: 0 },
  T3: { area1: 2.62, area2: 1.58, area3: 3.95, fixedMonthly: 0 },
};

const DAY_NIGHT = { 1: 'Dzienna', 2: 'Nocna' } as const;
const PEAK_OFFPEAK = { 1: 'Szczytowa', 2: 'Pozaszczytowa' } as const;

interface Operator {
  operator: string;
  operatorName: string;
  clock: TariffClock;
  /** Notes of every preset of the operator. */
  notes: PresetNote[];
  confidence: 'primary' | 'secondary';
  source: string;
}

const TAURON: Operator = {
  operator: 'TAURON',
  operatorName: 'TAURON Dystrybucja',
  clock: 'local',
  notes: ['clockUnconfirmed'],
  confidence: 'primary',
  source: '[S1] TAURON Dystrybucja, Wyciąg z Taryfy 2026 (grupy G)',
};
const ENERGA: Operator = {
  operator: 'Energa',
  operatorName: 'Energa-Operator',
  clock: 'cet',
  notes: [],
  confidence: 'primary',
  source: '[S2] Energa-Operator, Taryfa 2026, pkt 3.2.5–3.2.10',
};
const PGE: Operator = {
  operator: 'PGE',
  operatorName: 'PGE Dystrybucja',
  clock: 'cet',
  notes: [],
  confidence: 'primary',
  source: '[S3] PGE Dystrybucja, Taryfa (t.j. od 01.02.2026), p. 16–17',
};
const ENEA: Operator = {
  operator: 'Enea',
  operatorName: 'Enea Operator',
  clock: 'cet',
  notes: ['secondarySources', 'clockSecondary'],
  confidence: 'secondary',
  source: 'secondary: [S5], [S6], [S7], [S14]',
};
const STOEN: Operator = {
  operator: 'Stoen',
  operatorName: 'Stoen Operator',
  clock: 'local',
  notes: ['secondarySources', 'clockUnconfirmed'],
  confidence: 'secondary',
  source: 'secondary: [S6], [S7]',
};
const EPDK: Operator = {
  operator: 'EPDK',
  operatorName: 'EPDK (national rule, all distributors)',
  clock: 'local',
  notes: ['trStillInForce'],
  confidence: 'primary',
  source: '[S10] EPDK Kurul Kararı 6561 (27.10.2016) via Enerjisa; [S11]',
};

function preset(
  op: Operator,
  group: TariffGroup,
  schedule: ZoneSchedule,
  zoneNames: TariffPreset['zoneNames'],
  extra: { notes?: PresetNote[]; source?: string } = {},
): TariffPreset {
  const tr = op === EPDK;
  return {
    id: `${op.operator}-${group}`.toLowerCase(),
    operator: op.operator,
    operatorName: op.operatorName,
    country: tr ? 'TR' : 'PL',
    group,
    validFrom: tr ? '2016-10-27' : '2026-01-01',
    holidayCalendar: tr ? null : 'PL',
    clock: op.clock,
    confidence: op.confidence,
    notes: [...op.notes, ...(extra.notes ?? [])],
    zoneNames,
    schedule,
    currency: tr ? 'TRY' : 'PLN',
    referencePrices: REFERENCE[group],
    source: extra.source ? `${op.source}; ${extra.source}` : op.source,
  };
}

const g11 = (op: Operator) => preset(op, 'G11', allYear(everyDay(G11_DAY)), { 1: 'Całodobowa' });
const g12as = (op: Operator, extra: { notes?: PresetNote[] } = {}) =>
  preset(op, 'G12as', allYear(everyDay(G12AS_DAY)), DAY_NIGHT, { notes: ['g12asBaseline', ...(extra.notes ?? [])] });

/** PGE's summer (1 Apr–30 Sep) day: cheap 15–17 instead of 13–15, plus 22–06. */
const PGE_SUMMER = day(1, {
  2: [
    [0, 6],
    [15, 17],
    [22, 24],
  ],
});

/** Every preset; ids are `<operator>-<group>` in lower case. */
export const TARIFF_PRESETS: readonly TariffPreset[] = [
  g11(TAURON),
  preset(TAURON, 'G12', allYear(everyDay(G12_CLASSIC)), DAY_NIGHT),
  preset(TAURON, 'G12w', allYear(weekdaysOnly(G12_CLASSIC)), PEAK_OFFPEAK),
  g12as(TAURON),
  preset(
    TAURON,
    'G13',
    summerWinter(weekdaysOnly(day(2, { 1: [[7, 13]], 3: [[19, 22]] })), weekdaysOnly(day(2, { 1: [[7, 13]], 3: [[16, 21]] }))),
    { 1: 'Szczyt przedpołudniowy', 2: 'Pozostałe godziny doby', 3: 'Szczyt popołudniowy' },
  ),
  g11(ENERGA),
  preset(ENERGA, 'G12', allYear(everyDay(G12_CLASSIC)), DAY_NIGHT),
  preset(ENERGA, 'G12w', allYear(weekdaysOnly(G12_CLASSIC)), DAY_NIGHT),
  preset(
    ENERGA,
    'G12r',
    allYear(
      everyDay(
        day(1, {
          2: [
            [0, 7],
            [13, 16],
            [22, 24],
          ],
        }),
      ),
    ),
    PEAK_OFFPEAK,
  ),
  g12as(ENERGA),
  g11(PGE),
  preset(PGE, 'G12', summerWinter(everyDay(PGE_SUMMER), everyDay(G12_CLASSIC)), DAY_NIGHT),
  preset(PGE, 'G12w', summerWinter(weekdaysOnly(PGE_SUMMER), weekdaysOnly(G12_CLASSIC)), DAY_NIGHT),
  preset(
    PGE,
    'G12n',
    // Day 05:00–01:00: the hour after midnight belongs to the day it falls on (a Sunday's is night).
    allYear({ ...everyDay(day(1, { 2: [[1, 5]] })), sunday: day(2), holiday: day(2) }),
    DAY_NIGHT,
  ),
  g12as(PGE),
  g11(ENEA),
  preset(ENEA, 'G12', allYear(everyDay(G12_CLASSIC)), DAY_NIGHT, { notes: ['eneaRule'] }),
  preset(
    ENEA,
    'G12w',
    allYear(
      weekdaysOnly(
        day(1, {
          2: [
            [0, 6],
            [21, 24],
          ],
        }),
      ),
    ),
    PEAK_OFFPEAK,
  ),
  g11(STOEN),
  preset(STOEN, 'G12', allYear(everyDay(G12_CLASSIC)), DAY_NIGHT, { notes: ['stoenSundays'] }),
  preset(
    STOEN,
    'G12w',
    allYear(
      weekdaysOnly(
        day(1, {
          2: [
            [0, 6],
            [22, 24],
          ],
        }),
      ),
    ),
    PEAK_OFFPEAK,
    { notes: ['singleSource'] },
  ),
  g12as(STOEN, { notes: ['singleSource'] }),
  preset(EPDK, 'T1', allYear(everyDay(G11_DAY)), { 1: 'Tek zamanlı' }, { source: '§3 of the note' }),
  preset(
    EPDK,
    'T3',
    allYear(
      everyDay(
        day(1, {
          2: [
            [0, 6],
            [22, 24],
          ],
          3: [[17, 22]],
        }),
      ),
    ),
    {
      1: 'Gündüz (T1)',
      2: 'Gece (T3)',
      3: 'Puant (T2)',
    },
  ),
];

const BY_ID = new Map(TARIFF_PRESETS.map((p) => [p.id, p]));

/** The preset of an id, or undefined. */
export function tariffPreset(id: string): TariffPreset | undefined {
  return BY_ID.get(id);
}

/** Whether the app labels a preset unconfirmed (third-party hours, or an unconfirmed clock or validity). */
export function presetUnconfirmed(p: Pick<TariffPreset, 'confidence' | 'notes'>): boolean {
  return p.confidence === 'secondary' || p.notes.some((n) => UNCONFIRMED_NOTES.has(n));
}

/** A tariff with every default filled in: what is stored. */
export interface ResolvedTariff {
  name: string;
  group: TariffGroup;
  presetId: string | null;
  clock: TariffClock;
  currency: string;
  holidayCalendar: HolidayCalendar | null;
  schedule: ZoneSchedule;
  /** Oldest first. */
  prices: TariffPrice[];
}

/**
 * A validated tariff request with the preset's defaults filled in (schedule, clock, holiday calendar), or
 * the field and message key that make it unusable: an unknown preset, a preset of another group, no
 * schedule at all, or prices missing for areas the preset's schedule uses.
 */
export function resolveTariffRequest(req: ParsedTariffRequest): { tariff: ResolvedTariff } | { field: string; key: string } {
  const preset = req.presetId === null ? undefined : tariffPreset(req.presetId);
  if (req.presetId !== null && !preset) return { field: 'presetId', key: 'tariffs.errors.unknownPreset' };
  if (preset && preset.group !== req.group) return { field: 'presetId', key: 'tariffs.errors.presetGroup' };
  const schedule = req.schedule ?? preset?.schedule;
  if (!schedule) return { field: 'schedule', key: 'tariffs.errors.scheduleRequired' };
  const used = scheduleAreas(schedule);
  for (const [i, p] of req.prices.entries()) {
    for (const a of [2, 3] as const)
      if (used.has(a) && p[`area${a}`] === null) return { field: `prices.${i}.area${a}`, key: 'tariffs.errors.priceRequired' };
  }
  return {
    tariff: {
      name: req.name,
      group: req.group,
      presetId: req.presetId,
      clock: req.clock ?? preset?.clock ?? 'local',
      currency: req.currency,
      holidayCalendar: req.holidayCalendar !== undefined ? req.holidayCalendar : (preset?.holidayCalendar ?? null),
      schedule: structuredClone(schedule),
      prices: [...req.prices].sort((a, b) => (a.validFrom < b.validFrom ? -1 : 1)),
    },
  };
}
