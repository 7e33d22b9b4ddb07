import { z } from 'zod';
import { COMPARISON_NAME_MAX, COMPARISON_NAME_MIN } from '../constants.js';
import { PARAMETER_NAMES } from '../telemetry/parameters.js';
import { instantSchema, MAX_RANGE_MS } from '../telemetry/readings.schema.js';
import { idParamSchema } from '../validation/id.js';
import { hasNoControlCharacters } from '../validation/text.js';

/**
 * The analytics screen (spec section 2): heatmaps, the consumption table, sum comparisons and saved
 * comparisons. Written once for the server's validation and the web screens.
 */

const DAY = 86_400_000;

/**
 * The device's energy figure in a parameter field: its import counters (`energy3phases_import`, else
 * `eai1+eai2+eai3`), or for producers its export counters, as the device page's energy figures.
 */
export const ENERGY_PARAMETER = 'energy';

/** A catalogue parameter or the device's energy figure. */
export const analyticsParameterSchema = z
  .string({ error: 'validation.parameter' })
  .refine((p) => p === ENERGY_PARAMETER || PARAMETER_NAMES.includes(p), { error: 'validation.parameter' });

/** A calendar date `YYYY-MM-DD` (a local date of the user). */
export const localDateSchema = z
  .string({ error: 'validation.dateRange' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.date' })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    error: 'validation.date',
  });

/** Days from one calendar date to another (`to` − `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

export const HEATMAP_KINDS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type HeatmapKind = (typeof HEATMAP_KINDS)[number];

/** Longest range of each heatmap in days (both dates included); longer answers "Data range is too long.". */
export const HEATMAP_MAX_DAYS: Record<HeatmapKind, number> = { daily: 366, weekly: 2 * 366, monthly: 5 * 366, yearly: 20 * 366 };

/**
 * `GET /api/analytics/heatmap`: `from` and `to` are local dates of the user, both included.
 * - daily: a row per date, a cell per local hour of it (23 or 25 on the days the clocks change);
 * - weekly: a row per day of the week (`1` Monday … `7` Sunday), a cell per hour, averaged over the weeks;
 * - monthly: a row per month (`YYYY-MM`), a cell per day of it;
 * - yearly: a row per year, a cell per month.
 */
export const heatmapQuerySchema = z
  .strictObject({
    deviceId: idParamSchema,
    parameter: analyticsParameterSchema.default(ENERGY_PARAMETER),
    kind: z.enum(HEATMAP_KINDS, { error: 'must be one of daily, weekly, monthly, yearly' }),
    from: localDateSchema,
    to: localDateSchema,
  })
  .refine((q) => q.from <= q.to, { error: 'validation.dateOrder', path: ['to'] })
  .refine((q) => daysBetween(q.from, q.to) + 1 <= HEATMAP_MAX_DAYS[q.kind], { error: 'validation.rangeTooLong', path: ['to'] });
export type HeatmapQuery = z.input<typeof heatmapQuerySchema>;

/**
 * A heatmap. `values[r]` holds row r's cells: for an energy counter the energy used in the cell (kWh),
 * otherwise the average of the readings in it; null where nothing was measured. Rows of `daily` and
 * `monthly` have as many cells as their day has hours or their month has days (`columns` names the
 * longest). `starts[r][c]` is the cell's first instant (epoch ms) and `rowEnds[r]` the end of the row's
 * last cell, so a cell spans [starts[r][c], next start); `weekly` cells span many weeks: both null.
 * `hours[r][c]` is the local hour of a `daily` cell (the repeated hour of the autumn change appears twice).
 */
export const heatmapResponseSchema = z.object({
  kind: z.enum(HEATMAP_KINDS),
  parameter: z.string(),
  unit: z.string(),
  aggregate: z.enum(['sum', 'average']),
  timezone: z.string(),
  rows: z.array(z.string()),
  columns: z.array(z.string()),
  values: z.array(z.array(z.number().nullable())),
  starts: z.array(z.array(z.number())).nullable(),
  rowEnds: z.array(z.number()).nullable(),
  hours: z.array(z.array(z.number())).nullable(),
});
export type HeatmapResponse = z.infer<typeof heatmapResponseSchema>;

export const CONSUMPTION_INTERVALS = ['15m', '30m', '1h', '24h', 'month'] as const;
export type ConsumptionInterval = (typeof CONSUMPTION_INTERVALS)[number];
/** Longest range of the consumption table per bucket. */
export const CONSUMPTION_MAX_RANGE_MS: Record<ConsumptionInterval, number> = {
  '15m': MAX_RANGE_MS['15m'],
  '30m': MAX_RANGE_MS['30m'],
  '1h': MAX_RANGE_MS['1h'],
  '24h': MAX_RANGE_MS['24h'],
  month: 20 * 366 * DAY,
};
export const CONSUMPTION_PAGE_SIZES = [25, 50, 100] as const;
export const CONSUMPTION_MAX_DEVICES = 8;

const idList = z
  .string({ error: 'validation.required' })
  .trim()
  .transform((s, ctx) => {
    const parts = s.split(',').map((p) => p.trim());
    const ids: number[] = [];
    for (const p of parts) {
      const r = idParamSchema.safeParse(p);
      if (!r.success) {
        ctx.addIssue({ code: 'custom', message: 'validation.id' });
        return z.NEVER;
      }
      if (!ids.includes(r.data)) ids.push(r.data);
    }
    return ids;
  })
  .refine((ids) => ids.length >= 1 && ids.length <= CONSUMPTION_MAX_DEVICES, { error: 'validation.max' });

/**
 * `GET /api/analytics/consumption`: energy per device and bucket in `[from, to)`, with totals; sorted
 * by the bucket's start (`time`), the row total (`total`) or one device's column (`device:<id>`), paged.
 */
export const consumptionQuerySchema = z
  .strictObject({
    deviceIds: idList,
    from: instantSchema,
    to: instantSchema,
    interval: z.enum(CONSUMPTION_INTERVALS, { error: 'must be one of 15m, 30m, 1h, 24h, month' }).default('24h'),
    sort: z
      .string()
      .regex(/^(time|total|device:[1-9][0-9]{0,9})$/, { error: 'must be time, total or device:<id>' })
      .default('time'),
    dir: z.enum(['asc', 'desc']).default('asc'),
    page: z.coerce
      .number({ error: 'validation.integer' })
      .int({ error: 'validation.integer' })
      .min(1, { error: 'validation.min' })
      .max(1_000_000)
      .default(1),
    pageSize: z.coerce
      .number({ error: 'validation.integer' })
      .int({ error: 'validation.integer' })
      .refine((n) => (CONSUMPTION_PAGE_SIZES as readonly number[]).includes(n), { error: 'must be 25, 50 or 100' })
      .default(50),
  })
  .refine((q) => q.from < q.to, { error: 'validation.dateOrder', path: ['to'] })
  .refine((q) => q.to - q.from <= CONSUMPTION_MAX_RANGE_MS[q.interval], { error: 'validation.rangeTooLong', path: ['to'] });
export type ConsumptionQuery = z.input<typeof consumptionQuerySchema>;
/** The consumption query as the server reads it (ids parsed, defaults filled): what a client asks for. */
export type ConsumptionParams = z.output<typeof consumptionQuerySchema>;

export const consumptionResponseSchema = z.object({
  interval: z.enum(CONSUMPTION_INTERVALS),
  timezone: z.string(),
  unit: z.string(),
  from: z.number(),
  to: z.number(),
  /** The columns: each device with its total over the range. */
  devices: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      total: z.number().nullable(),
      /** Whether `total` adds it (issue 33): production and sub-meters under a listed grid meter are shown, not added. */
      inTotal: z.boolean().optional(),
    }),
  ),
  total: z.number().nullable(),
  /** One page of buckets that hold energy of any of the devices: start, end (epoch ms), per device, total. */
  rows: z.array(z.object({ start: z.number(), end: z.number(), values: z.array(z.number().nullable()), total: z.number().nullable() })),
  page: z.number(),
  pageSize: z.number(),
  totalRows: z.number(),
});
export type ConsumptionResponse = z.infer<typeof consumptionResponseSchema>;

export const SUM_COMPARISON_MAX_ITEMS = 8;

/**
 * `POST /api/analytics/sums`: figures side by side (devices, or one device in several periods); each item
 * is a device and a range `[from, to)`. Energy adds up over the range, other parameters average.
 */
export const sumComparisonRequestSchema = z.strictObject({
  parameter: analyticsParameterSchema.default(ENERGY_PARAMETER),
  items: z
    .array(
      z
        .strictObject({
          deviceId: z.number({ error: 'validation.id' }).int({ error: 'validation.id' }).min(1, { error: 'validation.id' }),
          from: instantSchema,
          to: instantSchema,
        })
        .refine((i) => i.from < i.to, { error: 'validation.dateOrder', path: ['to'] })
        .refine((i) => i.to - i.from <= CONSUMPTION_MAX_RANGE_MS.month, { error: 'validation.rangeTooLong', path: ['to'] }),
    )
    .min(2, { error: 'validation.min' })
    .max(SUM_COMPARISON_MAX_ITEMS, { error: 'validation.max' }),
});
export type SumComparisonRequest = z.input<typeof sumComparisonRequestSchema>;

/** Below this share of a period with data, a comparison gives no percentage (a year-old history against a month). */
export const SUM_COVERAGE_MIN = 0.5;

/**
 * Each item's figure, and its difference from the first item (kWh or the unit, and %; null without a base,
 * and null when the item or the base has data for less than SUM_COVERAGE_MIN of its elapsed time).
 */
export const sumComparisonResponseSchema = z.object({
  parameter: z.string(),
  unit: z.string(),
  aggregate: z.enum(['sum', 'average']),
  items: z.array(
    z.object({
      deviceId: z.number(),
      deviceName: z.string(),
      from: z.number(),
      to: z.number(),
      value: z.number().nullable(),
      difference: z.number().nullable(),
      percent: z.number().nullable(),
      /** Share (0–1) of the period up to now that has data: hours (days for ranges over 62 days) with a figure. */
      coverage: z.number(),
    }),
  ),
});
export type SumComparisonResponse = z.infer<typeof sumComparisonResponseSchema>;

export const COMPARISON_MAX_SERIES = 12;

/** A comparison's name: 3 to 30 characters (spec sections 5 and 9), one line. */
export const comparisonNameSchema = z
  .string({ error: 'validation.comparisonName' })
  .trim()
  .min(COMPARISON_NAME_MIN, { error: 'validation.comparisonName' })
  .max(COMPARISON_NAME_MAX, { error: 'validation.comparisonName' })
  .refine(hasNoControlCharacters, { error: 'validation.controlCharacters' });

export const comparisonSeriesSchema = z.strictObject({
  deviceId: z.number({ error: 'validation.id' }).int({ error: 'validation.id' }).min(1, { error: 'validation.id' }),
  parameter: analyticsParameterSchema,
});
export type ComparisonSeries = z.infer<typeof comparisonSeriesSchema>;

/** `POST /api/comparisons`, `PUT /api/comparisons/:id`: a name and at least one series (device + parameter). */
export const comparisonRequestSchema = z.strictObject({
  name: comparisonNameSchema,
  series: z
    .array(comparisonSeriesSchema, { error: 'validation.parameters' })
    .min(1, { error: 'validation.parameters' })
    .max(COMPARISON_MAX_SERIES, { error: 'validation.max' })
    .refine((s) => new Set(s.map((x) => `${x.deviceId}:${x.parameter}`)).size === s.length, { error: 'validation.duplicateSeries' }),
});
export type ComparisonRequest = z.input<typeof comparisonRequestSchema>;

/** A saved comparison. Dates are UTC `YYYY-MM-DD HH:mm:ss`. */
export const comparisonSchema = z.object({
  id: z.number(),
  name: z.string(),
  series: z.array(z.object({ deviceId: z.number(), parameter: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Comparison = z.infer<typeof comparisonSchema>;
