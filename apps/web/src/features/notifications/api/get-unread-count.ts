import type { UnreadCountResponse } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { notificationKeys } from './notification-keys';

/** GET notifications/unread-count: the bell's number (refreshed by hub events, on focus and every minute). */
export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.unread,
    queryFn: ({ signal }) => apiClient.get<UnreadCountResponse>(api.notificationsUnread, { signal, notFoundRedirect: false }),
    refetchInterval: 60_000,
    staleTime: 15_000,
  });

export function useUnreadCount(enabled = true) {
  return useQuery({ ...unreadCountQueryOptions(), enabled });
}
