import { z } from 'zod';
import { hasNoControlCharacters } from '../validation/text.js';

/**
 * Devices Phasewatch reads itself ("collected"), rather than devices that send to it: the families the
 * server's collectors speak (apps/server/src/collectors/<family>.ts) and the contract of their routes.
 */
export const COLLECTOR_KINDS = ['fox-energy', 'shelly-gen2', 'shelly-gen1', 'tasmota'] as const;
export type CollectorKind = (typeof COLLECTOR_KINDS)[number];

/** Kinds polled over HTTP at an address; Tasmota is heard on the MQTT broker under a topic instead. */
export const POLLED_KINDS: readonly CollectorKind[] = ['fox-energy', 'shelly-gen2', 'shelly-gen1'];

/** Default poll interval (s): what the open-source integrations of these meters use. */
export const DEFAULT_POLL_SECONDS = 5;
export const MIN_POLL_SECONDS = 1;
export const MAX_POLL_SECONDS = 3600;

const collectorKindSchema = z.enum(COLLECTOR_KINDS, { error: 'validation.collectorKind' });

/** `http://host[:port]` (http or https, no credentials, query or fragment; a path prefix is kept). */
export function isDeviceUrl(s: string): boolean {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.username && !u.password && !u.search && !u.hash;
}

/** A Tasmota `%topic%`: printable, no MQTT wildcards, no empty level. */
export function isMqttTopicName(s: string): boolean {
  return s.length > 0 && !/[+#\s]/.test(s) && !s.split('/').includes('') && hasNoControlCharacters(s);
}

const addressSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(300, { error: 'validation.tooLong' })
  .refine(hasNoControlCharacters, { error: 'validation.controlCharacters' });

/** The device's own key or password (Fox: the REST key, `000` or `0000` when none is set; Shelly: its password). */
const deviceKeySchema = z
  .string({ error: 'validation.required' })
  .max(128, { error: 'validation.tooLong' })
  .refine(hasNoControlCharacters, { error: 'validation.controlCharacters' });

/** Address rules per kind: a URL for polled kinds, a topic for Tasmota. */
function addressFits(v: { kind: CollectorKind; address: string }): boolean {
  return v.kind === 'tasmota' ? isMqttTopicName(v.address) : isDeviceUrl(v.address);
}
const addressIssue = { error: 'validation.collectorAddress', path: ['address'] };

/**
 * `source` of `POST /api/devices`: where Phasewatch reads the device. `address` is a URL such as
 * `http://192.168.1.20` (Fox, Shelly) or the device's MQTT topic (Tasmota); the key is stored and never
 * answered back.
 */
export const collectorSourceSchema = z
  .strictObject({
    kind: collectorKindSchema,
    address: addressSchema,
    key: deviceKeySchema.optional(),
    pollSeconds: z
      .number({ error: 'validation.number' })
      .int({ error: 'validation.integer' })
      .min(MIN_POLL_SECONDS, { error: 'validation.min' })
      .max(MAX_POLL_SECONDS, { error: 'validation.max' })
      .optional(),
  })
  .refine(addressFits, addressIssue);
export type CollectorSource = z.infer<typeof collectorSourceSchema>;

/**
 * `PUT /api/devices/{id}/collector`: where and how the device is read from now on (a meter's address
 * changed, a new key). `key` left out keeps the stored one, `""` forgets it; `pollSeconds` left out keeps
 * the interval. Saved as given (the collector's state then says how reading goes); the web app tests the
 * settings first with `POST /api/devices/{id}/collector/test`, which uses the stored key when none is given.
 */
export const collectorUpdateSchema = collectorSourceSchema;

/** `POST /api/devices/{id}/collector/test`: new settings of a collected device, tested with its stored key unless one is given. */
export const collectorRetestSchema = z.strictObject({ address: addressSchema.optional(), key: deviceKeySchema.optional() });

/** `POST /api/collectors/test`. */
export const collectorTestRequestSchema = z
  .strictObject({ kind: collectorKindSchema, address: addressSchema, key: deviceKeySchema.optional() })
  .refine(addressFits, addressIssue);
export type CollectorTestRequest = z.infer<typeof collectorTestRequestSchema>;

/** Why a collector could not read a device: a key the web app translates (`collectors.errors.*`). */
export const COLLECTOR_ERRORS = [
  'networkRefused',
  'unreachable',
  'timeout',
  'httpStatus',
  'redirect',
  'unauthorized',
  'notJson',
  'deviceError',
  'unexpectedAnswer',
  'badValues',
  'noBroker',
  'noMessage',
] as const;
export type CollectorErrorKey = (typeof COLLECTOR_ERRORS)[number];

/** `POST /api/collectors/test` answer: what the device said it is, or why it could not be read. */
export const collectorTestResponseSchema = z.union([
  z.object({
    ok: z.literal(true),
    /** The kind that answered (a Shelly says its generation itself). */
    kind: collectorKindSchema,
    model: z.string().optional(),
    mac: z.string().optional(),
    /** Phases it measures, and the type code that fits (13 three-phase, 20 single-phase). */
    phases: z.number().int().optional(),
    typeCode: z.number().int().optional(),
    /** The parameters of its first reading (our names and units). */
    values: z.record(z.string(), z.number()).optional(),
  }),
  z.object({ ok: z.literal(false), error: z.string(), errorKey: z.enum(COLLECTOR_ERRORS) }),
]);
export type CollectorTestResponse = z.infer<typeof collectorTestResponseSchema>;

export const COLLECTOR_STATES = ['starting', 'polling', 'listening', 'retrying', 'stopped'] as const;
export type CollectorState = (typeof COLLECTOR_STATES)[number];

/** `GET /api/devices/{id}/collector`: how reading the device goes. Dates are UTC `YYYY-MM-DD HH:mm:ss`. */
export const collectorStatusSchema = z.object({
  kind: collectorKindSchema,
  /** URL or topic (the key is never answered). */
  address: z.string(),
  pollSeconds: z.number().int(),
  /** Whether a device key is stored (the key itself is never answered). */
  hasKey: z.boolean(),
  /** starting: not read yet; polling / listening: the last read worked; retrying: it failed, next try after a back-off. */
  state: z.enum(COLLECTOR_STATES),
  lastSuccessAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorKey: z.enum(COLLECTOR_ERRORS).nullable(),
  lastErrorAt: z.string().nullable(),
  /** Failures in a row since the last success. */
  failures: z.number().int(),
  /** When the next read is due (polled kinds). */
  nextAttemptAt: z.string().nullable(),
});
export type CollectorStatus = z.infer<typeof collectorStatusSchema>;

/** A Fox device that answered the UDP discovery. */
export const discoveredDeviceSchema = z.object({
  address: z.string(),
  mac: z.string(),
  /** F&F's device type number from the answer. */
  deviceType: z.number().int(),
});
export const discoverResponseSchema = z.object({ devices: z.array(discoveredDeviceSchema) });
export type DiscoveredDevice = z.infer<typeof discoveredDeviceSchema>;
