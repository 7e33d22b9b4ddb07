import { notifications } from '@mantine/notifications';
import type { NotificationEvent, NotificationItem } from '@phasewatch/shared';
import { i18n } from '@/i18n';
import { describeNotification, LEVEL_COLOR } from './notification-text';

/** Kinds the dashboard already announces with the spec's own toasts (features/devices/device-alerts.ts). */
const ANNOUNCED_ELSEWHERE = new Set(['offline', 'weak_signal']);
/** Alarms of one device arriving this close together (one reading crossing several limits) share a toast. */
const GROUP_MS = 3000;
const SEVERITY: Record<NotificationItem['level'], number> = { critical: 0, warning: 1, info: 2 };

const recent = new Map<number, { id: string; items: NotificationItem[]; until: number }>();

/**
 * A new alarm as a toast on the page (loaded with the first alarm, not with the app). Held alarms (quiet
 * hours, a muted device) make no toast: the bell counts them and the list says why they were held. Offline
 * and weak signal have the spec's toasts already: no second one. Alarms of one device raised together
 * (a sag beyond the drop threshold and the warning level) are one toast, the most serious first.
 */
export function showNotificationToast(e: NotificationEvent, now = Date.now()): void {
  const item = e.item;
  if (!item || item.held !== null || ANNOUNCED_ELSEWHERE.has(item.kind)) return;
  const t = i18n.t.bind(i18n);
  const group = recent.get(item.deviceId);
  const joined = group && group.until > now;
  const items = joined ? [...group.items, item] : [item];
  items.sort((a, b) => SEVERITY[a.level] - SEVERITY[b.level]);
  const head = items[0] as NotificationItem;
  const id = joined ? group.id : `notification-${item.id}`;
  recent.set(item.deviceId, { id, items, until: now + GROUP_MS });
  const more = items.length > 1 ? ` ${t('notifications.toastMore', { count: items.length - 1 })}` : '';
  const toast = {
    id,
    color: LEVEL_COLOR[head.level],
    title: `${t(`notifications.kinds.${head.kind}`)} · ${head.deviceName}`,
    message: `${describeNotification(t, i18n.language, head)}${more}`,
    autoClose: head.level === 'critical' ? 15_000 : 8000,
  };
  if (joined) notifications.update(toast);
  else notifications.show(toast);
}
