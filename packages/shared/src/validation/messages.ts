import { IMPORT_ERROR_MESSAGES } from '../integrations/import.schema.js';
import { POWER_QUALITY_ERROR_MESSAGES, POWER_QUALITY_VALIDATION_MESSAGES } from '../power-quality/messages.js';
import { PROSUMER_VALIDATION_MESSAGES } from '../prosumer/prosumer-messages.js';
import { TARIFF_ERROR_MESSAGES, TARIFF_VALIDATION_MESSAGES } from '../tariffs/tariff-messages.js';

/**
 * The validation message keys the shared schemas use, with their English text. The web app translates
 * the keys through its catalogues (`validation.*` in en/pl/tr); the API answers the English text.
 */
export const VALIDATION_MESSAGES = {
  ...TARIFF_VALIDATION_MESSAGES,
  ...POWER_QUALITY_VALIDATION_MESSAGES,
  ...PROSUMER_VALIDATION_MESSAGES,
  'validation.required': 'is required',
  'validation.tooLong': 'is too long',
  'validation.email': 'must be a valid email address',
  'validation.passwordMin': 'must be at least 4 characters',
  'validation.country': 'must be a known country code',
  'validation.timezone': 'must be a known IANA timezone',
  'validation.language': 'must be one of en, pl, tr',
  'validation.number': 'must be a valid number',
  'validation.integer': 'must be a whole number',
  'validation.min': 'is below the minimum',
  'validation.max': 'is above the maximum',
  'validation.warningRange': 'must be between 0 and 50 %',
  'validation.criticalRange': 'must be between 0 and 100 %',
  'validation.warningBelowCritical': 'warning level must be less than critical level',
  'validation.dateRange': 'a date range is required',
  'validation.dateOrder': 'the start must be before the end',
  'validation.parameters': 'select at least one parameter',
  'validation.fileType': 'choose a file type',
  'validation.comparisonName': 'must be 3 to 30 characters',
  'validation.mac': 'must be a MAC address like AA:BB:CC:DD:EE:FF',
  'validation.date': 'must be a date YYYY-MM-DD',
  'validation.dateTime': 'must be an ISO-8601 date and time',
  'validation.rangeTooLong': 'Data range is too long.',
  'validation.parameter': 'is not a known parameter',
  'validation.id': 'must be a positive whole number written in decimal digits',
  'validation.controlCharacters': 'must not contain control characters',
  'validation.invalidText': 'must be valid Unicode text (it has an unpaired surrogate)',
  'validation.fileName': 'must not contain / \\ : * ? " < > | or be only dots',
  'validation.duplicateSeries': 'each device and parameter may appear once',
  'validation.collectorKind': 'must be one of fox-energy, shelly-gen2, shelly-gen1, tasmota',
  'validation.collectorAddress': 'must be a device URL such as http://192.168.1.20 (Tasmota: its MQTT topic)',
} as const;
export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

/**
 * Message keys of the errors services answer on purpose (`errors.*`), with their English text. The API
 * answers the English text as `message` and the key as `key` of each field error; the web translates the key.
 */
export const ERROR_MESSAGES = {
  ...TARIFF_ERROR_MESSAGES,
  ...IMPORT_ERROR_MESSAGES,
  ...POWER_QUALITY_ERROR_MESSAGES,
  'errors.invalidCredentials': 'Invalid email or password',
  'errors.tooManyAttempts': 'Too many failed sign-in attempts, try again later',
  'errors.tooManyRequests': 'Too many requests, try again later',
  'errors.emailTaken': 'already registered',
  'errors.resetTokenInvalid': 'invalid or expired',
  'errors.macTaken': 'a device with this MAC address is already registered',
  'errors.deviceNotFound': 'Device not found',
  'errors.unauthorized': 'Unauthorized',
  'errors.unknownField': 'unknown field',
  /** 503 of a job start when the queue is full (spec section 8); the web shows its `messages.exportBusy`. */
  'messages.exportBusy': 'Export is unavailable because the server is busy. Try again later.',
  'errors.collectorTestFailed': 'the device could not be read',
  'errors.collectorNotFound': 'This device is not read by a collector',
  /** 409 of a push subscription past PUSH_SUBSCRIPTIONS_PER_USER. */
  'errors.pushSubscriptionLimit': 'This account already has the most push subscriptions allowed (20); remove one first',
  /** 403 of Fox discovery on a server that is not on loopback and has no COLLECTOR_DISCOVERY_ADDRESS. */
  'errors.discoveryOff': 'Discovery is off on this server (set COLLECTOR_DISCOVERY_ADDRESS to turn it on)',
} as const;
export type ErrorMessageKey = keyof typeof ERROR_MESSAGES;

/** English text for a message key; other messages (zod's own) pass through unchanged. */
export function validationMessage(keyOrText: string): string {
  return (VALIDATION_MESSAGES as Record<string, string>)[keyOrText] ?? (ERROR_MESSAGES as Record<string, string>)[keyOrText] ?? keyOrText;
}

/** Whether a text is one of the message keys above (validation or error), which the web can translate. */
export function isMessageKey(text: string): text is ValidationMessageKey | ErrorMessageKey {
  return Object.hasOwn(VALIDATION_MESSAGES, text) || Object.hasOwn(ERROR_MESSAGES, text);
}
