import type { NotificationItem } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { notificationKeys } from './notification-keys';

/** POST notifications/:id/read, or /acknowledge (which also marks it read). */
export function markNotification(id: number, action: 'read' | 'acknowledge'): Promise<NotificationItem> {
  return apiClient.post<NotificationItem>(action === 'read' ? api.notificationRead(id) : api.notificationAcknowledge(id), undefined, {
    notFoundRedirect: false,
  });
}

export function useMarkNotification() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'read' | 'acknowledge' }) => markNotification(id, action),
    onSuccess: () => qc.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
