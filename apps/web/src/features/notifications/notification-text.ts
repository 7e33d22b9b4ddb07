import type { NotificationItem } from '@phasewatch/shared';
import type { TFunction } from 'i18next';
import { numberFormat } from '@/lib/intl';

const DIGITS: Record<NotificationItem['unit'], number> = { V: 1, kWh: 3, dBm: 0, '%': 1, '': 0 };

/** One line about an alarm: the value, its phase and the limit crossed, in the user's language. */
export function describeNotification(t: TFunction, lng: string, item: NotificationItem): string {
  const f = numberFormat(lng, { maximumFractionDigits: DIGITS[item.unit] });
  return t(`notifications.describe.${item.kind}`, {
    phase: item.phase ?? 1,
    value: item.worstValue === null ? '—' : f.format(item.worstValue),
    threshold: item.threshold === null ? '—' : f.format(item.threshold),
  });
}

/** A duration as its two largest units ("1 h 5 min", "3 min 20 s", "2 d 4 h"). */
export function formatDuration(t: TFunction, seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const parts: [number, string][] = [
    [Math.floor(s / 86_400), 'days'],
    [Math.floor((s % 86_400) / 3600), 'hours'],
    [Math.floor((s % 3600) / 60), 'minutes'],
    [s % 60, 'seconds'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first === -1) return t('notifications.duration.seconds', { count: 0 });
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => t(`notifications.duration.${unit}`, { count: n }))
    .join(' ');
}

/** Toast and list colour of a level. */
export const LEVEL_COLOR: Record<NotificationItem['level'], string> = { info: 'blue', warning: 'orange', critical: 'red' };
