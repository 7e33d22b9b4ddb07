import type { NotificationsResponse } from '@phasewatch/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { type NotificationFilters, notificationKeys } from './notification-keys';

const PAGE = 30;

/** GET notifications with the filters, newest first; `before` pages further back. */
export function getNotifications(f: NotificationFilters, before: number | null, signal?: AbortSignal): Promise<NotificationsResponse> {
  const q = new URLSearchParams({ limit: String(PAGE) });
  if (f.deviceId !== undefined) q.set('deviceId', String(f.deviceId));
  if (f.kind) q.set('kind', f.kind);
  if (f.state) q.set('state', f.state);
  if (before !== null) q.set('before', String(before));
  return apiClient.get<NotificationsResponse>(`${api.notifications}?${q}`, { ...(signal ? { signal } : {}), notFoundRedirect: false });
}

export const notificationsQueryOptions = (f: NotificationFilters) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(f),
    queryFn: ({ pageParam, signal }) => getNotifications(f, pageParam, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
    // Durations of ongoing alarms and their end arrive without an event: look again every half minute.
    refetchInterval: 30_000,
  });

export function useNotifications(f: NotificationFilters) {
  return useInfiniteQuery(notificationsQueryOptions(f));
}
