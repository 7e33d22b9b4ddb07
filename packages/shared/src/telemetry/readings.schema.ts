import { z } from 'zod';
import { PARAMETER_NAMES } from './parameters.js';

/** Chart intervals of spec section 9, plus raw readings. `24h` buckets are local days of the user. */
export const READING_INTERVALS = ['raw', '15m', '30m', '1h', '24h'] as const;
export type ReadingInterval = (typeof READING_INTERVALS)[number];

const DAY = 86_400_000;
/** Longest range each interval may ask for; longer answers 400 "Data range is too long.". */
export const MAX_RANGE_MS: Record<ReadingInterval, number> = {
  raw: 7 * DAY,
  '15m': 366 * DAY,
  '30m': 2 * 366 * DAY,
  '1h': 5 * 366 * DAY,
  '24h': 20 * 366 * DAY,
};

/** An instant as ISO-8601 with a zone, server format `YYYY-MM-DD HH:mm:ss` (UTC), or epoch ms. */
export const instantSchema = z
  .string({ error: 'validation.dateTime' })
  .trim()
  .transform((s, ctx) => {
    let ms: number;
    if (/^\d{10,14}$/.test(s)) ms = Number(s);
    else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) ms = Date.parse(`${s.replace(' ', 'T')}Z`);
    else if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/i.test(s)) ms = Date.parse(s);
    else ms = Number.NaN;
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: 'validation.dateTime' });
      return z.NEVER;
    }
    return ms;
  });

/**
 * `GET /api/devices/:id/readings` query. `from` inclusive, `to` exclusive. `params` is a comma list of
 * catalogue names; without it every parameter the device has data for in the range is answered.
 */
export const readingsQuerySchema = z
  .strictObject({
    from: instantSchema,
    to: instantSchema,
    interval: z.enum(READING_INTERVALS, { error: 'must be one of raw, 15m, 30m, 1h, 24h' }).default('1h'),
    params: z
      .string()
      .trim()
      .transform((s) => [
        ...new Set(
          s
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
        ),
      ])
      .refine((ps) => ps.every((p) => PARAMETER_NAMES.includes(p)), { error: 'validation.parameter' })
      .optional(),
  })
  .refine((q) => q.from < q.to, { error: 'validation.dateOrder', path: ['to'] })
  .refine((q) => q.to - q.from <= MAX_RANGE_MS[q.interval], { error: 'validation.rangeTooLong', path: ['to'] });
export type ReadingsQuery = z.input<typeof readingsQuerySchema>;

const nums = z.array(z.number().nullable());

/** An instantaneous parameter (power, voltage, …): per bucket the mean, minimum and maximum. */
export const instantSeriesSchema = z.object({ kind: z.literal('instant'), unit: z.string(), avg: nums, min: nums, max: nums });
/**
 * A cumulative counter: energy per bucket (`delta`, never negative); raw answers add the counter `value`.
 * `estimated` lists indices into `ts` of buckets whose energy is partly or wholly interpolated across a
 * gap in the readings (left out when there are none).
 */
export const counterSeriesSchema = z.object({
  kind: z.literal('counter'),
  unit: z.string(),
  delta: nums,
  value: nums.optional(),
  estimated: z.array(z.number()).optional(),
});
/** Raw readings of an instantaneous parameter: the value as sent. */
export const rawSeriesSchema = z.object({ kind: z.literal('raw'), unit: z.string(), values: nums });
export const seriesSchema = z.discriminatedUnion('kind', [instantSeriesSchema, counterSeriesSchema, rawSeriesSchema]);
export type Series = z.infer<typeof seriesSchema>;

/**
 * Columnar readings: `ts[i]` (epoch ms, UTC) is the start of bucket i (or the reading's time for raw)
 * and every series array has one entry per `ts`; buckets without data are left out. The energy deltas
 * of all buckets add up to the energy of the range.
 */
export const readingsResponseSchema = z.object({
  interval: z.enum(READING_INTERVALS),
  from: z.number(),
  to: z.number(),
  /** The zone of `24h` buckets (the user's). */
  timezone: z.string(),
  ts: z.array(z.number()),
  series: z.record(z.string(), seriesSchema),
});
export type ReadingsResponse = z.infer<typeof readingsResponseSchema>;

const energySpan = z.object({ from: z.number(), to: z.number(), energyKwh: z.number() });

/**
 * `GET /api/devices/:id/energy`: active energy import (kWh) in the user's timezone. `total` adds the
 * user-entered meter value to everything measured; the other figures are measured consumption.
 */
export const energyResponseSchema = z.object({
  timezone: z.string(),
  /** The counter the figures come from: `energy3phases_import`, or the sum of `eai1`…`eai3`. */
  source: z.string(),
  meterValueKwh: z.number(),
  measuredTotalKwh: z.number(),
  today: energySpan,
  month: energySpan,
  year: energySpan,
  total: z.number(),
  billingPeriod: energySpan,
});
export type EnergyResponse = z.infer<typeof energyResponseSchema>;
