import { z } from 'zod';
import { timezoneSchema } from '../account/account.schema.js';
import { singleLineText } from '../validation/text.js';
import { TARIFF_GROUPS, tariffRefSchema } from './tariff.schema.js';

/** Locations of spec section 3 (name, code, address, city, timezone, energy tariff). */

const text = singleLineText;
/** An id in a JSON body: a positive whole number (ids in paths are text: `idParamSchema`). */
export const bodyIdSchema = z
  .number({ error: 'validation.id' })
  .int({ error: 'validation.id' })
  .min(1, { error: 'validation.id' })
  .max(2_147_483_647, { error: 'validation.id' });

/**
 * `POST /api/locations` and `PUT /api/locations/:id`. The timezone defaults to the user's (from their
 * country); `tariffId`, the location's energy tariff, must be one of its own tariffs.
 */
export const locationRequestSchema = z.strictObject({
  name: text(100).min(1, { error: 'validation.required' }),
  code: text(50).default(''),
  address: text(200).default(''),
  city: text(100).default(''),
  timezone: timezoneSchema.optional(),
  tariffId: bodyIdSchema.nullable().optional(),
});
export type LocationRequest = z.input<typeof locationRequestSchema>;
export type ParsedLocationRequest = z.output<typeof locationRequestSchema>;

export const locationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  address: z.string(),
  city: z.string(),
  timezone: z.string(),
  /** The energy tariff (the default of the location's devices), or null. */
  tariff: tariffRefSchema.nullable(),
  tariffs: z.array(tariffRefSchema),
  devices: z.array(z.object({ id: z.number().int(), name: z.string(), typeCode: z.number().int(), tariffId: z.number().int().nullable() })),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type Location = z.infer<typeof locationSchema>;

/** A location named in the device list. */
export const locationRefSchema = z.object({ id: z.number().int(), name: z.string() });

const periodFigures = z.object({
  from: z.string(),
  to: z.string(),
  kWh: z.number(),
  /** Null without an energy tariff. */
  energyCost: z.number().nullable(),
  fixedCost: z.number().nullable(),
  totalCost: z.number().nullable(),
});

/** `GET /api/locations/:id/summary`: energy and cost of its devices this month (so far) and last month. */
export const locationSummarySchema = z.object({
  locationId: z.number().int(),
  timezone: z.string(),
  tariff: z.object({ id: z.number().int(), name: z.string(), group: z.enum(TARIFF_GROUPS), currency: z.string() }).nullable(),
  thisMonth: periodFigures,
  lastMonth: periodFigures,
});
export type LocationSummary = z.infer<typeof locationSummarySchema>;
