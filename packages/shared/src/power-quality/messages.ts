/**
 * Message keys of the power-quality report, with their English text: spread into the shared catalogues of
 * validation/messages.ts (the API answers the text, the web translates the key from its `quality` area).
 */
export const POWER_QUALITY_VALIDATION_MESSAGES = {
  'quality.errors.pdfOnly': 'the power-quality report is a PDF',
  'quality.errors.weekOnlyForReport': 'only the power-quality report takes a week',
} as const;

/** Errors the power-quality service answers on purpose. */
export const POWER_QUALITY_ERROR_MESSAGES = {
  'quality.errors.notMonday': 'must be a Monday YYYY-MM-DD',
  'quality.errors.weekInFuture': 'the week has not started yet',
  'quality.errors.weekBeforeFirstReading': 'the week ends before the device’s first voltage reading',
  'quality.errors.noVoltage': 'this device sends no voltage readings, so it has no power-quality report',
} as const;
