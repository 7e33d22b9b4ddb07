import { Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { storedTimezone } from '@/lib/auth-store';
import { dateTimeFormat } from '@/lib/intl';
import { timeAgo } from '@/lib/relative-time';
import { effectiveTimezone } from '@/lib/timezone';
import { useNow } from '@/lib/use-now';

/**
 * The age of a reading, ticking: "3 seconds ago" (`short`: "3 sec. ago"), the date and time it was
 * taken on hover, in the user's zone. `length`: the relative format's style. Seconds tick every second; older ages every 15 s.
 */
export function ReadingAge({ ts, length = 'long', ...props }: { ts: number; length?: Intl.RelativeTimeFormatStyle } & TextProps) {
  const { i18n } = useTranslation();
  const now = useNow(Date.now() - ts < 60_000 ? 1000 : 15_000);
  const at = dateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: effectiveTimezone(storedTimezone()),
  }).format(ts);
  return (
    <Text component="time" dateTime={new Date(ts).toISOString()} title={at} data-reading-age={ts} {...props}>
      {timeAgo(ts, now, i18n.language, length)}
    </Text>
  );
}
