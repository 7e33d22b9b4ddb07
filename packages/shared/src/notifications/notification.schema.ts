import { z } from 'zod';
import { NIGHT_END_HOUR, NIGHT_START_HOUR } from '../constants.js';
import { localParts } from '../energy/zoned-time.js';
import { idParamSchema } from '../validation/id.js';

/**
 * Notifications and alarms: what the rules raise on ingest, what the list answers, and the Web Push
 * subscription a browser sends. Written once for the server's routes and the web app.
 */

/**
 * What a notification is about. The first six are conditions with a lifecycle; `online` is an event;
 * `quality_week_failed` is a week (Monday to Monday, local) whose supply failed EN 50160 (issue 30): its
 * start and end are the week's, its value the worst failing phase's share of 10-minute means outside
 * 207–253 V (%), its threshold the 5 % the standard allows.
 */
export const NOTIFICATION_KINDS = [
  'voltage_drop',
  'voltage_rise',
  'limit_warning',
  'limit_critical',
  'consumption',
  'offline',
  'online',
  'weak_signal',
  'quality_week_failed',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS, { error: `must be one of ${NOTIFICATION_KINDS.join(', ')}` });
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/**
 * `active`: the condition holds; `acknowledged`: it holds and the user has seen to it; `cleared`: it
 * ended (an `online` event is cleared from the start: it happens at an instant).
 */
export const NOTIFICATION_STATES = ['active', 'acknowledged', 'cleared'] as const;
export const notificationStateSchema = z.enum(NOTIFICATION_STATES, { error: `must be one of ${NOTIFICATION_STATES.join(', ')}` });
export type NotificationState = z.infer<typeof notificationStateSchema>;

/** How serious a kind is (the toast's colour, the push's urgency). */
export const NOTIFICATION_LEVELS = ['info', 'warning', 'critical'] as const;
export type NotificationLevelName = (typeof NOTIFICATION_LEVELS)[number];
export const NOTIFICATION_KIND_LEVEL: Record<NotificationKind, NotificationLevelName> = {
  voltage_drop: 'warning',
  voltage_rise: 'warning',
  limit_warning: 'warning',
  limit_critical: 'critical',
  consumption: 'warning',
  offline: 'warning',
  online: 'info',
  weak_signal: 'info',
  quality_week_failed: 'warning',
};

/**
 * Why an alarm was recorded but not pushed or mailed: the user's quiet hours (22:00–07:00 in their zone,
 * `disableAtNight`), the device muted (`muteAll`), readings that reached the server long after the
 * condition began (`late`: a device uploading what it buffered offline), or a notification of the same
 * kind of the device sent within its notification interval (`interval`). Held alarms are never sent later.
 */
export const NOTIFICATION_HOLDS = ['quietHours', 'muted', 'late', 'interval'] as const;
export type NotificationHold = (typeof NOTIFICATION_HOLDS)[number];

/** Units of an alarm's worst value: volts, kWh in the billing period, dBm of the WiFi signal, a share of the week (%), none. */
export type NotificationUnit = 'V' | 'kWh' | 'dBm' | '%' | '';
export const NOTIFICATION_KIND_UNIT: Record<NotificationKind, NotificationUnit> = {
  voltage_drop: 'V',
  voltage_rise: 'V',
  limit_warning: 'V',
  limit_critical: 'V',
  consumption: 'kWh',
  offline: '',
  online: '',
  weak_signal: 'dBm',
  quality_week_failed: '%',
};

/** One entry of the notification list (`GET /api/notifications`). Dates are UTC `YYYY-MM-DD HH:mm:ss`. */
export const notificationItemSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  deviceName: z.string(),
  /** The device's type code (its detail page and chart). */
  deviceTypeCode: z.number().int(),
  kind: notificationKindSchema,
  level: z.enum(NOTIFICATION_LEVELS),
  state: notificationStateSchema,
  startedAt: z.string(),
  /** When the condition ended; null while it holds. */
  endedAt: z.string().nullable(),
  /** Seconds from start to end (to now while it holds). */
  durationSeconds: z.number().int(),
  /** The worst value while it held: lowest voltage of a drop, highest of a rise, farthest from 230 V for limits, kWh, dBm, a failed week's % outside ±10 %; null for offline/online. */
  worstValue: z.number().nullable(),
  unit: z.enum(['V', 'kWh', 'dBm', '%', '']),
  /** The phase of the worst value (1–3), null when the value is not a phase's. */
  phase: z.number().int().nullable(),
  /** The limit the value crossed, in the same unit (null for offline/online). */
  threshold: z.number().nullable(),
  /** How many times the condition began within this one alarm (a condition that flaps within the interval stays one alarm). */
  occurrences: z.number().int(),
  read: z.boolean(),
  acknowledgedAt: z.string().nullable(),
  /** Why it was not pushed or mailed, or null. */
  held: z.enum(NOTIFICATION_HOLDS).nullable(),
  /** Which channels delivered it. */
  sent: z.object({ push: z.boolean(), email: z.boolean() }),
});
export type NotificationItem = z.infer<typeof notificationItemSchema>;

/** Entries per page of the list at most. */
export const NOTIFICATIONS_PAGE_MAX = 200;

/** `GET /api/notifications` query: filters by device, kind and state; newest first, `before` an id for the next page. */
export const notificationsQuerySchema = z.strictObject({
  deviceId: idParamSchema.optional(),
  kind: notificationKindSchema.optional(),
  state: notificationStateSchema.optional(),
  before: idParamSchema.optional(),
  limit: z
    .string({ error: 'validation.number' })
    .regex(/^\d{1,3}$/, { error: 'validation.integer' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= NOTIFICATIONS_PAGE_MAX, { error: `must be between 1 and ${NOTIFICATIONS_PAGE_MAX}` })
    .optional(),
});
export type NotificationsQuery = z.input<typeof notificationsQuerySchema>;

export const notificationsResponseSchema = z.object({
  items: z.array(notificationItemSchema),
  /** Unread notifications of the user (all of them, whatever the filters). */
  unread: z.number().int(),
  /** Pass as `before` for the next page; null on the last one. */
  nextBefore: z.number().int().nullable(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

export const unreadCountResponseSchema = z.object({ unread: z.number().int() });
export type UnreadCountResponse = z.infer<typeof unreadCountResponseSchema>;

/** Base64url without padding, as browsers give a subscription's keys. */
const base64url = (bytes: number) =>
  z
    .string({ error: 'validation.required' })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: 'must be base64url' })
    .refine((s) => Math.floor((s.replace(/=+$/, '').length * 3) / 4) === bytes, { error: `must be ${bytes} bytes in base64url` });

/** Longest push endpoint URL accepted (push services' are well under 1 KB). */
export const PUSH_ENDPOINT_MAX = 2048;

const endpointSchema = z
  .string({ error: 'validation.required' })
  .max(PUSH_ENDPOINT_MAX, { error: 'validation.tooLong' })
  .refine((s) => URL.canParse(s), { error: 'must be a URL' });

/**
 * `POST /api/push/subscriptions`: what `PushSubscription.toJSON()` gives (the endpoint of the browser's
 * push service and the keys RFC 8291 encrypts for). Only `https` endpoints on public addresses are
 * accepted (checked by the server, which resolves the host).
 */
export const pushSubscriptionRequestSchema = z.strictObject({
  endpoint: endpointSchema,
  keys: z.strictObject({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65),
    /** The authentication secret (16 bytes). */
    auth: base64url(16),
  }),
  /** Sent by `toJSON()` in some browsers; not used. */
  expirationTime: z.number().nullable().optional(),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;

/** `DELETE /api/push/subscriptions`: the browser's endpoint. */
export const pushUnsubscribeRequestSchema = z.strictObject({ endpoint: endpointSchema });

/** `GET /api/push/vapid-public-key`: the server's VAPID key (base64url, uncompressed P-256), the push `applicationServerKey`. */
export const vapidPublicKeyResponseSchema = z.object({ publicKey: z.string() });

/**
 * Whether `ts` falls in the night of spec section 9 (22:00–07:00) in `tz`: by the local wall clock, so
 * the quiet hours stay 22:00–07:00 across DST changes (a night of 8 or 10 hours) and a time that
 * occurs twice in the autumn is quiet both times.
 */
export function isNightTime(ts: number, tz: string): boolean {
  const { hour } = localParts(ts, tz);
  return NIGHT_START_HOUR > NIGHT_END_HOUR
    ? hour >= NIGHT_START_HOUR || hour < NIGHT_END_HOUR
    : hour >= NIGHT_START_HOUR && hour < NIGHT_END_HOUR;
}
