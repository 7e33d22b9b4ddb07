import { dateTimeFormat } from '@/lib/intl';

/** A `YYYY-MM` month as the language writes it ("Jun 2025", "cze 2025", "Haz 2025"); anything else as given. */
export function monthLabel(month: string, lang: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  return dateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)),
  );
}
