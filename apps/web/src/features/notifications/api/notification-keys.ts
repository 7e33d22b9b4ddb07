import type { NotificationKind, NotificationState } from '@phasewatch/shared';

/** The list's filters (all optional), as the page keeps them in its URL. */
export interface NotificationFilters {
  deviceId?: number;
  kind?: NotificationKind;
  state?: NotificationState;
}

/** Query keys of the notification centre: everything under `['notifications']` is refreshed on a new alarm. */
export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  list: (f: NotificationFilters) => ['notifications', 'list', f.deviceId ?? null, f.kind ?? null, f.state ?? null] as const,
};
