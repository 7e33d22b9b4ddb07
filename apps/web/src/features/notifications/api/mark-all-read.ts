import type { UnreadCountResponse } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { notificationKeys } from './notification-keys';

/** POST notifications/read-all. */
export function markAllRead(): Promise<UnreadCountResponse> {
  return apiClient.post<UnreadCountResponse>(api.notificationsReadAll, undefined, { notFoundRedirect: false });
}

export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markAllRead,
    onSuccess: (answer) => {
      qc.setQueryData(notificationKeys.unread, answer);
      return qc.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}
