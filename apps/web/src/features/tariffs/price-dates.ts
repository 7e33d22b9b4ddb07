const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date (`YYYY-MM-DD`) in words of the language ("1 January 2026"); anything else as it is. */
export function longDate(iso: string, locale: string): string {
  return ISO_DATE.test(iso)
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`))
    : iso;
}

/** A price list's last day: the day before the next list starts ("until 30 June 2026", not "until 2026-07-01"). */
export function lastDayBefore(next: string, locale: string): string | undefined {
  if (!ISO_DATE.test(next)) return undefined;
  return longDate(new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10), locale);
}
