import { z } from 'zod';
import { collectorSourceSchema } from '../collectors/collector.schema.js';
import { LIMIT_CRITICAL_MAX, LIMIT_CRITICAL_MIN, LIMIT_WARNING_MAX, LIMIT_WARNING_MIN } from '../constants.js';
import { MAX_ID } from '../validation/id.js';
import { singleLineText } from '../validation/text.js';
import { WEAK_SIGNAL_DBM } from './parameters.js';

/**
 * Device rules of spec sections 3 and 5, written once for the server's validation and the web forms.
 * Messages are `validation.*` keys.
 */

const num = (error = 'validation.number') => z.number({ error }).refine(Number.isFinite, { error });

/** Voltage limit values, each a percentage of the nominal 230 V; bounds inclusive, warning < critical. */
export const limitsSchema = z
  .strictObject({
    warningLevel: num()
      .min(LIMIT_WARNING_MIN, { error: 'validation.warningRange' })
      .max(LIMIT_WARNING_MAX, { error: 'validation.warningRange' }),
    criticalLevel: num()
      .min(LIMIT_CRITICAL_MIN, { error: 'validation.criticalRange' })
      .max(LIMIT_CRITICAL_MAX, { error: 'validation.criticalRange' }),
  })
  .refine((l) => l.warningLevel < l.criticalLevel, { error: 'validation.warningBelowCritical', path: ['warningLevel'] });
export type Limits = z.infer<typeof limitsSchema>;

/** The user-entered meter reading (kWh) added to the measured consumption. */
export const meterValueSchema = z.strictObject({
  meterValueKwh: num().min(0, { error: 'validation.min' }).max(1e9, { error: 'validation.max' }),
});
export type MeterValue = z.infer<typeof meterValueSchema>;

/** Notification settings of spec section 3; thresholds are % of nominal voltage, consumption in kWh. */
export const notificationSettingsSchema = z.strictObject({
  pushEnabled: z.boolean({ error: 'validation.required' }),
  /** Alarm mails to the owner's address (when the server has a mail server, `SMTP_URL`). */
  emailEnabled: z.boolean({ error: 'validation.required' }),
  voltageDropThreshold: num().min(0, { error: 'validation.min' }).max(100, { error: 'validation.max' }),
  voltageRiseThreshold: num().min(0, { error: 'validation.min' }).max(100, { error: 'validation.max' }),
  /** Consumption (kWh) in the billing period above which a notification is sent; null for none. */
  totalConsumptionThreshold: num().min(0, { error: 'validation.min' }).max(1e9, { error: 'validation.max' }).nullable(),
  /** Quiet between 22:00 and 07:00 local time. */
  disableAtNight: z.boolean({ error: 'validation.required' }),
  /** Minimum minutes between two notifications of the same kind. */
  notificationIntervalMinutes: z
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(1, { error: 'validation.min' })
    .max(1440, { error: 'validation.max' }),
  muteAll: z.boolean({ error: 'validation.required' }),
  /**
   * A notification when a week of the device's supply fails EN 50160 (its power-quality report, checked
   * after each local Monday 00:00). Off by default, and off when absent: settings saved before it existed
   * (and clients that do not send it) keep working unchanged.
   */
  qualityWeekFailed: z.boolean({ error: 'validation.required' }).optional(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  pushEnabled: false,
  emailEnabled: false,
  voltageDropThreshold: 10,
  voltageRiseThreshold: 10,
  totalConsumptionThreshold: null,
  disableAtNight: true,
  notificationIntervalMinutes: 60,
  muteAll: false,
};
export const DEFAULT_LIMITS: Limits = { warningLevel: 10, criticalLevel: 20 };

const text = singleLineText;
const requiredText = (max: number) => text(max).min(1, { error: 'validation.required' });

/** MAC address, `AA:BB:CC:DD:EE:FF` (also `-` separated or bare); normalised to upper case with colons. */
export const macSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .regex(/^[0-9a-fA-F]{2}([:-]?[0-9a-fA-F]{2}){5}$/, { error: 'validation.mac' })
  .transform((m) =>
    m
      .replace(/[:-]/g, '')
      .toUpperCase()
      .replace(/(..)(?!$)/g, '$1:'),
  );

/** Billing start as a calendar date `YYYY-MM-DD`. */
export const calendarDateSchema = z
  .string({ error: 'validation.required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.date' })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    error: 'validation.date',
  });

const placementId = z
  .number({ error: 'validation.id' })
  .int({ error: 'validation.id' })
  .min(1, { error: 'validation.id' })
  .max(MAX_ID, { error: 'validation.id' })
  .nullable()
  .optional();
/**
 * Where a device is and what its energy costs: its location and default tariff (one of the location's
 * tariffs; without `tariffId`, a new location brings its energy tariff). Null clears.
 */
const placementFields = { locationId: placementId, tariffId: placementId };

const deviceFields = {
  name: requiredText(100),
  friendlyName: text(100).optional(),
  typeCode: z
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(0, { error: 'validation.min' })
    .max(9999, { error: 'validation.max' }),
  /** Defaults to the catalogue name of the type code. */
  typeName: text(100).optional(),
  mac: macSchema,
  model: text(100).optional(),
  billingStartDate: calendarDateSchema.optional(),
  billingPeriodMonths: z
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(1, { error: 'validation.min' })
    .max(24, { error: 'validation.max' })
    .optional(),
  /** How often the device sends; it is offline after three missed intervals. */
  reportingIntervalSeconds: z
    .number({ error: 'validation.number' })
    .int({ error: 'validation.integer' })
    .min(1, { error: 'validation.min' })
    .max(86_400, { error: 'validation.max' })
    .optional(),
  ...placementFields,
};

/**
 * `POST /api/devices`. With `source` Phasewatch reads the device itself (a collector); its MAC may then be
 * left out and is taken from the device (or made up from its address when the device does not say it).
 */
export const createDeviceRequestSchema = z
  .strictObject({ ...deviceFields, mac: macSchema.optional(), source: collectorSourceSchema.optional() })
  .refine((b) => b.mac !== undefined || b.source !== undefined, { error: 'validation.required', path: ['mac'] });
export type CreateDeviceRequest = z.input<typeof createDeviceRequestSchema>;

/** `PUT /api/devices/:id`: every field optional, the rest keep their values. */
export const updateDeviceRequestSchema = z.strictObject({
  name: deviceFields.name.optional(),
  friendlyName: deviceFields.friendlyName,
  typeCode: deviceFields.typeCode.optional(),
  typeName: deviceFields.typeName,
  mac: deviceFields.mac.optional(),
  model: deviceFields.model,
  billingStartDate: deviceFields.billingStartDate,
  billingPeriodMonths: deviceFields.billingPeriodMonths,
  reportingIntervalSeconds: deviceFields.reportingIntervalSeconds,
  ...placementFields,
  /** Published to Home Assistant through MQTT discovery (issue 31; off by default). */
  shareWithHomeAssistant: z.boolean().optional(),
  /** What the device measures at its location (issue 33); null returns to the default. */
  role: z
    .enum(['grid', 'production', 'submeter', 'other'], { error: 'must be one of grid, production, submeter, other' })
    .nullable()
    .optional(),
});
export type UpdateDeviceRequest = z.input<typeof updateDeviceRequestSchema>;

export const deviceStatusSchema = z.enum(['online', 'offline']);
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;

/** A row of the dashboard list (`GET /api/devices`). Dates are UTC `YYYY-MM-DD HH:mm:ss`. */
export const deviceListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  friendlyName: z.string(),
  mac: z.string(),
  model: z.string(),
  typeCode: z.number().int(),
  typeName: z.string(),
  status: deviceStatusSchema,
  weakSignal: z.boolean(),
  lastSeen: z.string().nullable(),
  /** The device's location and default tariff (null: none). */
  location: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  tariff: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** What the device measures at its location (the user's choice, else the default; issue 33). */
  role: z.enum(['grid', 'production', 'submeter', 'other']),
  /** Whether `role` was set by the user (false: the default). */
  roleSet: z.boolean(),
  /** Measured active-energy import plus the meter value (kWh). */
  totalEnergyKwh: z.number(),
  /**
   * The device's newest stored reading (epoch ms and the parameters it carried), so the list needs no
   * request per row; null before the first reading.
   */
  latestReading: z.object({ ts: z.number(), values: z.record(z.string(), z.number()) }).nullable(),
});
export type DeviceListItem = z.infer<typeof deviceListItemSchema>;

/** The full device (`GET /api/devices/:id`). */
export const deviceSchema = deviceListItemSchema.extend({
  registeredAt: z.string(),
  modifiedAt: z.string(),
  billingStartDate: z.string(),
  billingPeriodMonths: z.number().int(),
  reportingIntervalSeconds: z.number().int(),
  rssi: z.number().nullable(),
  limits: z.object({ warningLevel: z.number(), criticalLevel: z.number() }),
  meterValueKwh: z.number(),
  notifications: notificationSettingsSchema,
  /** Whether the device is shared with Home Assistant (MQTT discovery, HA_DISCOVERY). */
  shareWithHomeAssistant: z.boolean(),
});
export type Device = z.infer<typeof deviceSchema>;

/** `POST /api/devices` answer: the device and its ingest key, shown only this once. */
export const createDeviceResponseSchema = z.object({ device: deviceSchema, ingestKey: z.string() });
export type CreateDeviceResponse = z.infer<typeof createDeviceResponseSchema>;

/** A device is offline after this many reporting intervals without a reading (and at least a minute). */
export const OFFLINE_AFTER_INTERVALS = 3;

/** Online when the newest reading is at most three reporting intervals (minimum one minute) old. */
export function deviceStatus(lastSeen: number | null, reportingIntervalSeconds: number, now: number): DeviceStatus {
  if (lastSeen === null) return 'offline';
  const window = Math.max(60_000, OFFLINE_AFTER_INTERVALS * reportingIntervalSeconds * 1000);
  return now - lastSeen <= window ? 'online' : 'offline';
}

/** Weak WiFi signal: the last RSSI at or below `WEAK_SIGNAL_DBM`. */
export function isWeakSignal(rssi: number | null): boolean {
  return rssi !== null && rssi <= WEAK_SIGNAL_DBM;
}
