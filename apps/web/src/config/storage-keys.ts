/** Local-storage keys (spec section 9: token, timezone, language, theme and fox mode are kept). */
export const STORAGE_KEYS = {
  token: 'phasewatch.token',
  user: 'phasewatch.user',
  timezone: 'phasewatch.timezone',
  language: 'phasewatch.language',
  /** A language picked while signed out: it becomes the profile's at the next sign-in. */
  languagePicked: 'phasewatch.languagePicked',
  theme: 'phasewatch.theme',
  foxAppMode: 'phasewatch.foxAppMode',
} as const;
