import { z } from 'zod';
import { calendarDateSchema } from '../telemetry/device.schema.js';
import { singleLineText } from '../validation/text.js';

/**
 * Tariffs of spec section 3 (group, prices of areas 1–3, a constant fee) with what a real contract needs
 * besides: a zone schedule per season and day type, the meter's clock, a holiday calendar and prices with
 * validity dates. Written once for the server's validation and the web forms; messages are i18n keys.
 */

/**
 * Household groups: the spec's six Polish ones, TAURON's three-zone G13, and the Turkish single-time
 * (`T1`, tek zamanlı) and three-time (`T3`, üç zamanlı) tariffs.
 */
export const TARIFF_GROUPS = ['G11', 'G12', 'G12as', 'G12n', 'G12r', 'G12w', 'G13', 'T1', 'T3'] as const;
export type TariffGroup = (typeof TARIFF_GROUPS)[number];

/** Area 1 day / peak, area 2 night / off-peak (the cheap zone), area 3 a third zone (G13's afternoon peak, puant). */
export type TariffArea = 1 | 2 | 3;
export const TARIFF_AREAS: readonly TariffArea[] = [1, 2, 3];

/** The areas a group bills. */
export const GROUP_AREAS: Record<TariffGroup, readonly TariffArea[]> = {
  G11: [1],
  G12: [1, 2],
  G12as: [1, 2],
  G12n: [1, 2],
  G12r: [1, 2],
  G12w: [1, 2],
  G13: [1, 2, 3],
  T1: [1],
  T3: [1, 2, 3],
};

/** Day types a schedule distinguishes; a statutory holiday takes the holiday row whatever its weekday. */
export const DAY_TYPES = ['weekday', 'saturday', 'sunday', 'holiday'] as const;
export type DayType = (typeof DAY_TYPES)[number];

/**
 * The clock zones are read on: `local` the location's wall clock; `cet` a meter kept on winter time all
 * year (UTC+1; Energa and PGE meters), so in summer its zones fall an hour later by the wall clock.
 */
export const TARIFF_CLOCKS = ['local', 'cet'] as const;
export type TariffClock = (typeof TARIFF_CLOCKS)[number];

/** Statutory holiday calendars a schedule's holiday row follows (date-holidays, server side). */
export const HOLIDAY_CALENDARS = ['PL', 'TR'] as const;
export type HolidayCalendar = (typeof HOLIDAY_CALENDARS)[number];

/** Longest period statistics and the advisor compute, in days ("Data range is too long." beyond). */
export const MAX_TARIFF_PERIOD_DAYS = 366;
export const MAX_PRICE_PER_KWH = 1000;
export const MAX_FIXED_MONTHLY = 100_000;

/** Day of the year `MM-DD`, 29 February included. */
export const monthDaySchema = z
  .string({ error: 'tariffs.errors.monthDay' })
  .regex(/^\d{2}-\d{2}$/, { error: 'tariffs.errors.monthDay' })
  .refine(
    (s) => {
      const t = Date.parse(`2024-${s}T00:00:00Z`);
      return !Number.isNaN(t) && new Date(t).toISOString().slice(5, 10) === s;
    },
    { error: 'tariffs.errors.monthDay' },
  );

const area = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'tariffs.errors.areaNotInGroup' });
/** The area of each hour of a day, 0:00–1:00 first: 24 entries, so every hour is in exactly one area. */
export const dayHoursSchema = z.array(area, { error: 'tariffs.errors.hours24' }).length(24, { error: 'tariffs.errors.hours24' });
export type DayHours = TariffArea[];

export const seasonSchema = z.strictObject({
  name: singleLineText(40),
  /** First and last day of the season (inclusive); a season may wrap over New Year (10-01 → 03-31). */
  from: monthDaySchema,
  to: monthDaySchema,
  days: z.strictObject({ weekday: dayHoursSchema, saturday: dayHoursSchema, sunday: dayHoursSchema, holiday: dayHoursSchema }),
});
export type ZoneSeason = z.infer<typeof seasonSchema>;

/** Ordinal (1–366) of a `MM-DD` in a leap year. */
function ordinal(md: string): number {
  const t = Date.UTC(2024, Number(md.slice(0, 2)) - 1, Number(md.slice(3, 5)));
  return Math.round((t - Date.UTC(2024, 0, 1)) / 86_400_000) + 1;
}

/** Whether a season contains a day `MM-DD` (inclusive bounds, wrapping over New Year). */
export function seasonContains(season: Pick<ZoneSeason, 'from' | 'to'>, md: string): boolean {
  const d = ordinal(md);
  const a = ordinal(season.from);
  const b = ordinal(season.to);
  return a <= b ? d >= a && d <= b : d >= a || d <= b;
}

/** How many seasons contain each day of a leap year (index 0: 1 January). */
export function seasonCoverage(seasons: readonly Pick<ZoneSeason, 'from' | 'to'>[]): number[] {
  const out: number[] = [];
  for (let d = 0; d < 366; d++) {
    const md = new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(5, 10);
    out.push(seasons.filter((s) => seasonContains(s, md)).length);
  }
  return out;
}

/** A zone schedule: one or more seasons covering the year exactly once, each with a day of hours per day type. */
export const zoneScheduleSchema = z
  .strictObject({
    seasons: z.array(seasonSchema).min(1, { error: 'tariffs.errors.seasonCount' }).max(4, { error: 'tariffs.errors.seasonCount' }),
  })
  .superRefine((s, ctx) => {
    const ok = s.seasons.every((x) => monthDaySchema.safeParse(x.from).success && monthDaySchema.safeParse(x.to).success);
    if (ok && seasonCoverage(s.seasons).some((n) => n !== 1)) {
      ctx.addIssue({ code: 'custom', message: 'tariffs.errors.seasonsCover', path: ['seasons'] });
    }
  });
export type ZoneSchedule = z.infer<typeof zoneScheduleSchema>;

const money = (max: number) =>
  z
    .number({ error: 'validation.number' })
    .refine(Number.isFinite, { error: 'validation.number' })
    .refine((n) => n >= 0, { error: 'validation.min' })
    .refine((n) => n <= max, { error: 'validation.max' });

/**
 * A price list: prices per kWh of the areas and the constant monthly fee, applying from `validFrom`
 * (a local date, inclusive) until the next list's `validFrom`.
 */
export const tariffPriceSchema = z.strictObject({
  validFrom: calendarDateSchema,
  area1: money(MAX_PRICE_PER_KWH),
  area2: money(MAX_PRICE_PER_KWH).nullable().default(null),
  area3: money(MAX_PRICE_PER_KWH).nullable().default(null),
  fixedMonthly: money(MAX_FIXED_MONTHLY),
  /**
   * The energy part (sale of active energy, PLN/kWh as billed) of each area's price: what a prosumer
   * deposit pays (issue 33). Absent: the deposit's use is estimated with the whole price.
   */
  energyArea1: money(MAX_PRICE_PER_KWH).nullable().optional(),
  energyArea2: money(MAX_PRICE_PER_KWH).nullable().optional(),
  energyArea3: money(MAX_PRICE_PER_KWH).nullable().optional(),
});
export type TariffPrice = z.output<typeof tariffPriceSchema>;

let currencies: Set<string> | null = null;
/** ISO 4217 codes the runtime knows. */
export function isCurrencyCode(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}
export const currencySchema = z
  .string({ error: 'tariffs.errors.currency' })
  .regex(/^[A-Z]{3}$/, { error: 'tariffs.errors.currency' })
  .refine(isCurrencyCode, { error: 'tariffs.errors.currency' });

/** The areas a schedule uses anywhere. */
export function scheduleAreas(schedule: ZoneSchedule): Set<TariffArea> {
  const out = new Set<TariffArea>();
  for (const s of schedule.seasons) for (const d of DAY_TYPES) for (const a of s.days[d]) out.add(a);
  return out;
}

/**
 * `POST/PUT /api/locations/:locationId/tariffs[/:tariffId]`. Without a schedule the preset's is taken
 * (`resolveTariffRequest`); clock and holiday calendar default to the preset's too.
 */
export const tariffRequestSchema = z
  .strictObject({
    name: singleLineText(100).min(1, { error: 'validation.required' }),
    group: z.enum(TARIFF_GROUPS, { error: 'must be one of G11, G12, G12as, G12n, G12r, G12w, G13, T1, T3' }),
    presetId: z
      .string({ error: 'tariffs.errors.unknownPreset' })
      .max(40, { error: 'tariffs.errors.unknownPreset' })
      .nullable()
      .default(null),
    clock: z.enum(TARIFF_CLOCKS, { error: 'must be local or cet' }).optional(),
    currency: currencySchema.default('PLN'),
    holidayCalendar: z.enum(HOLIDAY_CALENDARS, { error: 'must be PL, TR or null' }).nullable().optional(),
    schedule: zoneScheduleSchema.optional(),
    prices: z.array(tariffPriceSchema).min(1, { error: 'tariffs.errors.priceList' }).max(120, { error: 'tariffs.errors.priceList' }),
  })
  .superRefine((t, ctx) => {
    const seen = new Map<string, number>();
    t.prices.forEach((p, i) => {
      if (seen.has(p.validFrom))
        ctx.addIssue({ code: 'custom', message: 'tariffs.errors.duplicateValidFrom', path: ['prices', i, 'validFrom'] });
      seen.set(p.validFrom, i);
    });
    const allowed = GROUP_AREAS[t.group];
    if (t.schedule) {
      t.schedule.seasons.forEach((s, i) => {
        for (const d of DAY_TYPES) {
          const h = s.days[d].findIndex((a) => !allowed.includes(a));
          if (h >= 0)
            ctx.addIssue({ code: 'custom', message: 'tariffs.errors.areaNotInGroup', path: ['schedule', 'seasons', i, 'days', d, h] });
        }
      });
      const used = scheduleAreas(t.schedule);
      t.prices.forEach((p, i) => {
        for (const a of [2, 3] as const) {
          if (used.has(a) && allowed.includes(a) && p[`area${a}`] === null)
            ctx.addIssue({ code: 'custom', message: 'tariffs.errors.priceRequired', path: ['prices', i, `area${a}`] });
        }
      });
    }
  });
export type TariffRequest = z.input<typeof tariffRequestSchema>;
export type ParsedTariffRequest = z.output<typeof tariffRequestSchema>;

const scheduleOut = z.object({
  seasons: z.array(
    z.object({
      name: z.string(),
      from: z.string(),
      to: z.string(),
      days: z.object({
        weekday: z.array(z.number()),
        saturday: z.array(z.number()),
        sunday: z.array(z.number()),
        holiday: z.array(z.number()),
      }),
    }),
  ),
});

/** `GET /api/tariffs/presets`: the presets, with what the app must label unconfirmed. */
export const tariffPresetSchema = z.object({
  id: z.string(),
  operator: z.string(),
  operatorName: z.string(),
  country: z.string(),
  group: z.enum(TARIFF_GROUPS),
  validFrom: z.string(),
  holidayCalendar: z.enum(HOLIDAY_CALENDARS).nullable(),
  clock: z.enum(TARIFF_CLOCKS),
  confidence: z.enum(['primary', 'secondary']),
  notes: z.array(z.string()),
  unconfirmed: z.boolean(),
  zoneNames: z.record(z.string(), z.string()),
  schedule: scheduleOut,
  currency: z.string(),
  /** Simulated reference prices (the advisor's where the user has none). */
  referencePrices: z.object({ area1: z.number(), area2: z.number().nullable(), area3: z.number().nullable(), fixedMonthly: z.number() }),
  source: z.string(),
});
export type TariffPresetInfo = z.infer<typeof tariffPresetSchema>;

/** A tariff as the API answers it. */
export const tariffSchema = z.object({
  id: z.number().int(),
  locationId: z.number().int(),
  name: z.string(),
  group: z.enum(TARIFF_GROUPS),
  presetId: z.string().nullable(),
  clock: z.enum(TARIFF_CLOCKS),
  currency: z.string(),
  holidayCalendar: z.enum(HOLIDAY_CALENDARS).nullable(),
  schedule: scheduleOut,
  /** Oldest first. */
  prices: z.array(
    z.object({
      validFrom: z.string(),
      area1: z.number(),
      area2: z.number().nullable(),
      area3: z.number().nullable(),
      fixedMonthly: z.number(),
      /** The energy part of each area's price (issue 33); null where not entered. */
      energyArea1: z.number().nullable().optional(),
      energyArea2: z.number().nullable().optional(),
      energyArea3: z.number().nullable().optional(),
    }),
  ),
  /** Whether it is its location's energy tariff. */
  isLocationTariff: z.boolean(),
  /** Devices using it as their default tariff. */
  deviceCount: z.number().int(),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type Tariff = z.infer<typeof tariffSchema>;

/** A tariff named in other answers (device list, locations). */
export const tariffRefSchema = z.object({ id: z.number().int(), name: z.string(), group: z.enum(TARIFF_GROUPS) });
export type TariffRef = z.infer<typeof tariffRefSchema>;

/** Local dates of a period: `from` inclusive, `to` exclusive, at most `MAX_TARIFF_PERIOD_DAYS` days. */
export function periodDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const periodFields = { from: calendarDateSchema, to: calendarDateSchema };
const periodRules = <T extends { from: string; to: string }>(q: T, ctx: z.RefinementCtx) => {
  if (!calendarDateSchema.safeParse(q.from).success || !calendarDateSchema.safeParse(q.to).success) return;
  if (q.from >= q.to) ctx.addIssue({ code: 'custom', message: 'validation.dateOrder', path: ['to'] });
  else if (periodDays(q.from, q.to) > MAX_TARIFF_PERIOD_DAYS)
    ctx.addIssue({ code: 'custom', message: 'validation.rangeTooLong', path: ['to'] });
};
const queryId = z
  .string({ error: 'validation.id' })
  .regex(/^[1-9][0-9]{0,19}$/, { error: 'validation.id' })
  .transform((s) => Number(s));

/** `GET /api/tariffs/:id/stats`: local dates of the tariff's location, `to` exclusive; one device or all of the location. */
export const tariffStatsQuerySchema = z.strictObject({ ...periodFields, deviceId: queryId.optional() }).superRefine(periodRules);
export type TariffStatsQuery = z.input<typeof tariffStatsQuerySchema>;

/** `GET /api/tariffs/advisor`: a device or a location; the period defaults to the last 12 months. */
export const advisorQuerySchema = z
  .strictObject({
    deviceId: queryId.optional(),
    locationId: queryId.optional(),
    from: calendarDateSchema.optional(),
    to: calendarDateSchema.optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.deviceId === undefined) === (q.locationId === undefined))
      ctx.addIssue({ code: 'custom', message: 'tariffs.errors.target', path: ['deviceId'] });
    if ((q.from === undefined) !== (q.to === undefined))
      ctx.addIssue({ code: 'custom', message: 'validation.dateRange', path: [q.from === undefined ? 'from' : 'to'] });
    if (q.from !== undefined && q.to !== undefined) periodRules({ from: q.from, to: q.to }, ctx);
  });
export type AdvisorQuery = z.input<typeof advisorQuerySchema>;

const zoneFigures = z.object({ area: z.number().int(), kWh: z.number(), cost: z.number() });
export type ZoneFigures = z.infer<typeof zoneFigures>;

/** Energy and cost per zone of a period, per local day and in total (costs rounded to 0.01, energy to 1 mWh). */
export const tariffStatsSchema = z.object({
  tariffId: z.number().int(),
  locationId: z.number().int(),
  deviceId: z.number().int().nullable(),
  /** Devices whose energy is counted. */
  deviceIds: z.array(z.number().int()),
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  clock: z.enum(TARIFF_CLOCKS),
  currency: z.string(),
  zones: z.array(zoneFigures),
  kWh: z.number(),
  energyCost: z.number(),
  fixedCost: z.number(),
  totalCost: z.number(),
  /** Energy of days before the first price list (not costed). */
  unpricedKWh: z.number(),
  /** The first price list's first day: days before it are not costed (here and in the advisor). */
  costedFrom: z.string().nullable().optional(),
  days: z.array(
    z.object({
      date: z.string(),
      hours: z.number(),
      zones: z.array(zoneFigures),
      kWh: z.number(),
      fixedCost: z.number(),
      cost: z.number(),
    }),
  ),
});
export type TariffStats = z.infer<typeof tariffStatsSchema>;

export const advisorOptionSchema = z.object({
  presetId: z.string(),
  operator: z.string(),
  group: z.enum(TARIFF_GROUPS),
  /** `tariff`: prices of the user's tariff of the same group; `reference`: the preset's simulated reference prices. */
  priceSource: z.enum(['tariff', 'reference']),
  priceTariffId: z.number().int().nullable(),
  currency: z.string(),
  zones: z.array(zoneFigures),
  energyCost: z.number(),
  fixedCost: z.number(),
  totalCost: z.number(),
  /** Cost over a year at this period's rate. */
  annualCost: z.number(),
  /** What it saves a year against the current tariff (negative: costs more); null without a current tariff. */
  savingPerYear: z.number().nullable(),
  /**
   * Energy a year that would have to move from the option's dearer areas into its cheap area (2) for it to
   * cost no more than the cheapest option; 0 for the cheapest, null when no move can do it.
   */
  shiftKWhPerYear: z.number().nullable(),
  /** That energy as a share (%) of the option's energy in its dearer areas. */
  shiftShare: z.number().nullable(),
  unconfirmed: z.boolean(),
});
export type AdvisorOption = z.infer<typeof advisorOptionSchema>;

export const advisorSchema = z.object({
  deviceId: z.number().int().nullable(),
  locationId: z.number().int().nullable(),
  deviceIds: z.array(z.number().int()),
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  country: z.string(),
  /** Days from the first to the last day with readings (what a year is scaled from). */
  /**
   * The first price list of the current tariff: days before it are not costed, in the balance and here (the
   * period starts there); null without a current tariff with prices.
   */
  costedFrom: z.string().nullable().optional(),
  daysWithData: z.number().int(),
  kWh: z.number(),
  current: z
    .object({
      tariffId: z.number().int(),
      name: z.string(),
      group: z.enum(TARIFF_GROUPS),
      currency: z.string(),
      totalCost: z.number(),
      annualCost: z.number(),
    })
    .nullable(),
  /** Cheapest first. */
  options: z.array(advisorOptionSchema),
});
export type Advisor = z.infer<typeof advisorSchema>;

/** `GET /api/tariffs/holidays`: a calendar's statutory holidays of a year. */
export const holidaysQuerySchema = z.strictObject({
  calendar: z.enum(HOLIDAY_CALENDARS, { error: 'must be PL or TR' }),
  year: z
    .string({ error: 'validation.integer' })
    .regex(/^\d{4}$/, { error: 'validation.integer' })
    .transform(Number)
    .refine((y) => y >= 1970 && y <= 2100, { error: 'validation.max' }),
  lang: z.enum(['en', 'pl', 'tr'], { error: 'validation.language' }).optional(),
});
export const holidaysSchema = z.object({
  calendar: z.enum(HOLIDAY_CALENDARS),
  year: z.number().int(),
  holidays: z.array(z.object({ date: z.string(), name: z.string() })),
});
export type Holidays = z.infer<typeof holidaysSchema>;
