/** Local-storage keys (spec section 9: token, timezone, language, theme and fox mode are kept). */
export const STORAGE_KEYS = {
  token: 'phasewatch.token',
  user: 'phasewatch.user',
  timezone: 'phasewatch.timezone',
  language: 'phasewatch.language',
  theme: 'phasewatch.theme',
  foxAppMode: 'phasewatch.foxAppMode',
} as const;
