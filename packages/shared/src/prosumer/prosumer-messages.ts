/** Message keys of the prosumer feature with their English text (spread into validation/messages.ts). */
export const PROSUMER_VALIDATION_MESSAGES = {
  'prosumer.errors.month': 'must be a month YYYY-MM',
  'prosumer.errors.futureMonth': 'must not be a month in the future',
  'prosumer.errors.secondGrid': 'the location already has a grid meter',
  'prosumer.errors.refundCap': 'must be 0.2 or 0.3',
  'prosumer.errors.csv': 'must be a CSV of RCE prices with columns dtime_utc (or start_utc) and rce_pln',
} as const;
