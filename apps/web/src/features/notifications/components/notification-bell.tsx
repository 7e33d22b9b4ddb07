import { Badge, UnstyledButton } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useHubClient } from '@/features/realtime';
import { withArea } from '@/i18n';
import { useIdleAfterPaint } from '@/lib/after-paint';
import { useUnreadCount } from '../api/get-unread-count';
import { notificationKeys } from '../api/notification-keys';

/**
 * The header's bell: the unread count, a link to the notification centre, and the hub's `notification`
 * events (the count and lists refresh; the toast's code loads with the first alarm). Kept small: it is in
 * every page's first chunk.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const client = useHubClient();
  // The count is asked once the page has painted and the browser is idle (the page's content does not wait for it).
  const unread = useUnreadCount(useIdleAfterPaint()).data?.unread ?? 0;

  useEffect(() => {
    if (!client) return;
    return client.on('notification', (e) => {
      void qc.invalidateQueries({ queryKey: notificationKeys.all });
      if (e.item && e.item.held === null)
        void withArea('notifications', () => import('../notification-toast'))().then((m) => m.showNotificationToast(e));
    });
  }, [client, qc]);

  // A browser that allowed notifications tells the server its subscription again (a renewed endpoint, a new sign-in).
  useEffect(() => {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    void import('../push-browser').then((m) => m.resyncPush()).catch(() => {});
  }, []);

  const label = unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell');
  return (
    <UnstyledButton
      component={Link}
      to={paths.notifications}
      aria-label={label}
      title={label}
      data-unread={unread}
      style={{ position: 'relative', display: 'inline-flex', padding: 6, borderRadius: 8 }}
    >
      <IconBell size={22} stroke={1.7} />
      {unread > 0 && (
        <Badge
          size="xs"
          color="red.9"
          variant="filled"
          circle={unread < 10}
          aria-hidden
          style={{ position: 'absolute', top: 0, right: -2, pointerEvents: 'none' }}
        >
          {unread > 99 ? '99+' : unread}
        </Badge>
      )}
    </UnstyledButton>
  );
}
