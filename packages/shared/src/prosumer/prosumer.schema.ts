import { z } from 'zod';
import { calendarDateSchema } from '../telemetry/device.schema.js';
import { deviceKind } from '../telemetry/device-types.js';
import { RCEM_VERSION_CHOICES } from './rcem.js';
import { COEFFICIENT_FROM, DEFAULT_COEFFICIENT, PROSUMER_SCHEMES, RCE_CLAMPS } from './settlement.js';

/**
 * API schemas of the prosumer feature (issue 33): device roles, a location's energy balance, its settlement
 * settings, the RCEm prices and the monthly ledger. Messages are keys of the shared catalogues.
 */

/**
 * What a device at a location measures: `grid` the main meter at the connection point (at most one per
 * location), `production` a PV inverter or solar meter, `submeter` part of what the grid meter measures
 * (shown, never added), `other` a separate supply (added).
 */
export const DEVICE_ROLES = ['grid', 'production', 'submeter', 'other'] as const;
export type DeviceRole = (typeof DEVICE_ROLES)[number];
export const deviceRoleSchema = z.enum(DEVICE_ROLES, { error: 'must be one of grid, production, submeter, other' });

/**
 * Effective roles of a location's devices: a role set by the user wins; otherwise solar devices are
 * `production`, the first three-phase meter (lowest id) is `grid` unless another device was made the grid
 * meter, and the rest `submeter`.
 */
export function effectiveRoles(devices: readonly { id: number; typeCode: number; role: string | null }[]): Map<number, DeviceRole> {
  const out = new Map<number, DeviceRole>();
  const hasGrid = devices.some((d) => d.role === 'grid');
  let gridTaken = hasGrid;
  for (const d of [...devices].sort((a, b) => a.id - b.id)) {
    if (d.role && (DEVICE_ROLES as readonly string[]).includes(d.role)) out.set(d.id, d.role as DeviceRole);
    else if (deviceKind(d.typeCode) === 'solar') out.set(d.id, 'production');
    else if (deviceKind(d.typeCode) === 'energy' && !gridTaken) {
      out.set(d.id, 'grid');
      gridTaken = true;
    } else out.set(d.id, 'submeter');
  }
  return out;
}

/**
 * The devices whose import a location's energy total adds (no double counting): the grid meter and
 * separate supplies (`other`); sub-meters only where there is no grid meter (nothing measures them already);
 * never a production device (its counters are what the PV produced).
 */
export function countedDeviceIds(devices: readonly { id: number; typeCode: number; role: string | null }[]): number[] {
  const roles = effectiveRoles(devices);
  const hasGrid = [...roles.values()].includes('grid');
  return devices
    .filter((d) => {
      const r = roles.get(d.id);
      return r === 'grid' || r === 'other' || (r === 'submeter' && !hasGrid);
    })
    .map((d) => d.id);
}

/** A calendar month `YYYY-MM` (2000-01 … 2099-12). */
export const monthSchema = z
  .string({ error: 'prosumer.errors.month' })
  .regex(/^20\d{2}-(0[1-9]|1[0-2])$/, { error: 'prosumer.errors.month' });

const number = (min: number, max: number) =>
  z
    .number({ error: 'validation.number' })
    .refine(Number.isFinite, { error: 'validation.number' })
    .refine((n) => n >= min, { error: 'validation.min' })
    .refine((n) => n <= max, { error: 'validation.max' });

/** `GET|PUT /api/locations/:id/prosumer`: how the location's seller settles its PV. */
export const prosumerSettingsSchema = z.strictObject({
  scheme: z.enum(PROSUMER_SCHEMES, { error: 'must be one of none, net-metering, net-billing-rcem, net-billing-rce' }),
  /** The local date the scheme applies from (a switch RCEm → RCE takes effect on it). */
  since: calendarDateSchema,
  /** The installation's power (kW): the net-metering ratio is 0.8 up to 10 kW, 0.7 above. */
  installationKw: number(0, 1000),
  /** The deposit's coefficient for energy fed in from `coefficientFrom` (1.0 before). */
  coefficient: number(0, 5).default(DEFAULT_COEFFICIENT),
  /** Share of an expiring tranche's value refunded: 0.2, or 0.3 for an RCEm→RCE switcher. */
  refundCap: z
    .number({ error: 'validation.number' })
    .refine((n) => n === 0.2 || n === 0.3, { error: 'prosumer.errors.refundCap' })
    .default(0.2),
  /** Which RCEm version of a corrected month: the latest correction, or as first published (as invoiced). */
  rcemVersion: z.enum(RCEM_VERSION_CHOICES, { error: 'must be latest or first' }).default('latest'),
  /** How an hour's RCE is made of its quarter prices: zero negative quarters first (`quarter`) or the hour's mean (`hour`). */
  rceClamp: z.enum(RCE_CLAMPS, { error: 'must be quarter or hour' }).default('quarter'),
  /** The first day energy fed in takes the coefficient (the amendment's 27 December 2024). */
  coefficientFrom: calendarDateSchema.default(COEFFICIENT_FROM),
});
export type ProsumerSettings = z.output<typeof prosumerSettingsSchema>;
export type ProsumerSettingsRequest = z.input<typeof prosumerSettingsSchema>;

export const BALANCE_INTERVALS = ['1h', '24h'] as const;
/** Longest balance period: 31 days per hour, 366 per day. */
export const MAX_BALANCE_DAYS = { '1h': 31, '24h': 366 } as const;

export const balanceQuerySchema = z.strictObject({
  from: calendarDateSchema,
  to: calendarDateSchema,
  interval: z.enum(BALANCE_INTERVALS, { error: 'must be 1h or 24h' }).default('24h'),
});

const balanceFigures = {
  importKWh: z.number(),
  exportKWh: z.number(),
  nettedImportKWh: z.number(),
  nettedExportKWh: z.number(),
  productionKWh: z.number(),
  consumptionKWh: z.number(),
  selfConsumptionKWh: z.number(),
};
export const balanceItemSchema = z.object({ start: z.string(), ...balanceFigures });
export type BalanceItem = z.infer<typeof balanceItemSchema>;

/** `GET /api/locations/:id/balance`. */
export const balanceSchema = z.object({
  locationId: z.number().int(),
  from: z.string(),
  to: z.string(),
  interval: z.enum(BALANCE_INTERVALS),
  timezone: z.string(),
  /** Devices by effective role (ids). */
  gridDeviceId: z.number().int().nullable(),
  productionDeviceIds: z.array(z.number().int()),
  otherDeviceIds: z.array(z.number().int()),
  items: z.array(balanceItemSchema),
  totals: z.object({
    ...balanceFigures,
    /** Self-consumption ÷ production, and the share of consumption not imported (null without production / consumption). */
    selfConsumptionShare: z.number().nullable(),
    selfSufficiencyShare: z.number().nullable(),
  }),
});
export type Balance = z.infer<typeof balanceSchema>;

export const ledgerQuerySchema = z.strictObject({ from: monthSchema, to: monthSchema });

export const ledgerMonthSchema = z.object({
  month: z.string(),
  nettedImportKWh: z.number(),
  nettedExportKWh: z.number(),
  price: z.number().nullable(),
  credited: z.number(),
  used: z.number(),
  refunded: z.number(),
  lost: z.number(),
  balance: z.number(),
  expiringNext: z.number(),
  energyCost: z.number().nullable(),
  cashForEnergy: z.number().nullable(),
  bankKWh: z.number(),
  bankCreditedKWh: z.number(),
  bankUsedKWh: z.number(),
  bankLostKWh: z.number(),
  unpricedExportKWh: z.number(),
  missingPrice: z.boolean(),
  energyEstimated: z.boolean(),
  /** Where the month's price comes from: the shipped table (its page) or the user's own value. */
  priceSource: z.enum(['shipped', 'user', 'rce']).nullable(),
  priceUrl: z.string().nullable(),
});

/** `GET /api/locations/:id/prosumer/ledger`. */
export const ledgerSchema = z.object({
  locationId: z.number().int(),
  scheme: z.enum(PROSUMER_SCHEMES),
  settings: prosumerSettingsSchema.nullable(),
  from: z.string(),
  to: z.string(),
  gridDeviceId: z.number().int().nullable(),
  /** The energy cost used a whole price where the price list has no energy part. */
  energyEstimated: z.boolean(),
  months: z.array(ledgerMonthSchema),
});
export type Ledger = z.infer<typeof ledgerSchema>;

export const rcemPutSchema = z.strictObject({ price: number(0, 10_000) });
export const rcemItemSchema = z.object({
  month: z.string(),
  price: z.number(),
  publishedAt: z.string().nullable(),
  source: z.enum(['shipped', 'user']),
  /** The shipped value's page; versions: how many the table keeps (corrections). */
  url: z.string().nullable(),
  versions: z.number().int(),
  firstPublished: z.number().nullable(),
});
export const rcemListSchema = z.object({ items: z.array(rcemItemSchema) });
export type RcemItem = z.infer<typeof rcemItemSchema>;

/** `POST /api/prices/rce/csv`: a user's RCE prices as CSV text (see the server's rce-import.ts for the columns). */
export const rceCsvSchema = z.strictObject({
  csv: z.string({ error: 'prosumer.errors.csv' }).min(1, { error: 'prosumer.errors.csv' }).max(900_000, { error: 'validation.tooLong' }),
});
/** Why a CSV line was not stored: its time, its price, too few cells, or a quarter given again (the first one is kept). */
export const RCE_CSV_REFUSALS = ['time', 'price', 'columns', 'duplicate'] as const;
export type RceCsvRefusal = (typeof RCE_CSV_REFUSALS)[number];
/** Lines refused by an upload that the answer lists at most (`refused` counts them all). */
export const RCE_CSV_REFUSED_LISTED = 100;
/**
 * What an RCE CSV upload stored: quarter prices `imported`, lines `refused` (the first ones listed with their
 * 1-based line number and reason), and the time covered: the first period's start and the last one's end
 * (UTC ms; null when nothing was stored).
 */
export const rceCsvResultSchema = z.object({
  imported: z.number().int(),
  refused: z.number().int(),
  refusedLines: z.array(z.object({ line: z.number().int(), reason: z.enum(RCE_CSV_REFUSALS) })),
  from: z.number().nullable(),
  to: z.number().nullable(),
});
export type RceCsvResult = z.infer<typeof rceCsvResultSchema>;

/** Longest span of `GET /api/prices/rce/days`. */
export const MAX_RCE_DAYS = 366;
/** `GET /api/prices/rce/days?from&to`: business days (Polish dates, `to` exclusive). */
export const rceDaysQuerySchema = z.strictObject({ from: calendarDateSchema, to: calendarDateSchema });
/**
 * Which quarter-hours of each business day have an RCE price for the user: `expected` quarters in the day (92,
 * 96 or 100 around DST), `priced` of them with a price, `imported` from PSE's daily import, `uploaded` from the
 * user's own CSV (which wins where both are).
 */
export const rceDaySchema = z.object({
  date: z.string(),
  expected: z.number().int(),
  priced: z.number().int(),
  imported: z.number().int(),
  uploaded: z.number().int(),
});
export const rceDaysSchema = z.object({ timezone: z.string(), days: z.array(rceDaySchema) });
export type RceDay = z.infer<typeof rceDaySchema>;
export type RceDays = z.infer<typeof rceDaysSchema>;
