/**
 * Message keys of locations and tariffs, with their English text: spread into the shared catalogues of
 * validation/messages.ts (the API answers the text, the web translates the key from its `tariffs` and
 * `locations` catalogue areas).
 */
export const TARIFF_VALIDATION_MESSAGES = {
  'tariffs.errors.hours24': 'must give an area for each of the 24 hours',
  'tariffs.errors.seasonsCover': 'the seasons must cover every day of the year exactly once',
  'tariffs.errors.monthDay': 'must be a day of the year MM-DD',
  'tariffs.errors.areaNotInGroup': 'uses an area this group does not have',
  'tariffs.errors.priceRequired': 'a price is required for every area the schedule uses',
  'tariffs.errors.duplicateValidFrom': 'another price starts on the same date',
  'tariffs.errors.unknownPreset': 'is not a known preset',
  'tariffs.errors.presetGroup': 'the preset belongs to another group',
  'tariffs.errors.scheduleRequired': 'give a schedule or a preset',
  'tariffs.errors.currency': 'must be an ISO 4217 currency code such as PLN',
  'tariffs.errors.priceList': 'give between 1 and 120 prices',
  'tariffs.errors.seasonCount': 'give between 1 and 4 seasons',
  'tariffs.errors.target': 'give either deviceId or locationId',
} as const;

/** Errors the locations and tariffs services answer on purpose (`errors.*`-like keys of the two areas). */
export const TARIFF_ERROR_MESSAGES = {
  'locations.errors.notFound': 'Location not found',
  'tariffs.errors.notFound': 'Tariff not found',
  'tariffs.errors.tariffOfLocation': 'the tariff must be one of the location’s tariffs',
  'tariffs.errors.locationFirst': 'choose a location before its tariff',
  'tariffs.errors.noData': 'no readings in this period',
} as const;
