/** True when the runtime knows the IANA zone. */
export function isValidTimezone(tz: string): boolean {
  return canonicalTimezone(tz) !== null;
}

/**
 * The canonical IANA name of a zone the runtime knows (`europe/WARSAW` → `Europe/Warsaw`, `US/Pacific`
 * → `America/Los_Angeles`), or null for an unknown one. Zones are stored by this name, so every
 * spelling of one zone is one value (caches keyed by zone stay as small as the zone list).
 */
export function canonicalTimezone(tz: string): string | null {
  // Names are short ASCII; anything else is no zone (and is not handed to Intl).
  if (tz.length === 0 || tz.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
