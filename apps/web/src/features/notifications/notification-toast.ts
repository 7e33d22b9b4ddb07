import { notifications } from '@mantine/notifications';
import type { NotificationEvent } from '@phasewatch/shared';
import { i18n } from '@/i18n';
import { describeNotification, LEVEL_COLOR } from './notification-text';

/**
 * A new alarm as a toast on the page (loaded with the first alarm, not with the app). Held alarms (quiet
 * hours, a muted device) make no toast: the bell counts them and the list says why they were held.
 */
export function showNotificationToast(e: NotificationEvent): void {
  const item = e.item;
  if (!item || item.held !== null) return;
  const t = i18n.t.bind(i18n);
  notifications.show({
    id: `notification-${item.id}`,
    color: LEVEL_COLOR[item.level],
    title: `${t(`notifications.kinds.${item.kind}`)} · ${item.deviceName}`,
    message: describeNotification(t, i18n.language, item),
    autoClose: item.level === 'critical' ? 15_000 : 8000,
  });
}
