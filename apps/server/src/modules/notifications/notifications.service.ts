import {
  NOTIFICATIONS_PAGE_MAX,
  type NotificationItem,
  type NotificationKind,
  type NotificationState,
  type NotificationsResponse,
  type PushSubscriptionRequest,
} from '@phasewatch/shared';
import { badRequest, keyedError, notFound } from '../../http/errors.js';
import type { PushChannel } from './channels/push.channel.js';
import { toItem } from './notifications.items.js';
import type { NotificationsRepository, NotificationWithDevice } from './notifications.repository.js';

const DEFAULT_PAGE = 50;

const itemOf = (row: NotificationWithDevice, now: number) => toItem(row, { name: row.device_name, typeCode: row.device_type_code }, now);
const notificationNotFound = () => notFound('Notification not found');

/** The user's side of notifications: the list, read and acknowledge, and this browser's push subscription. */
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly push: PushChannel,
    private readonly now: () => number = Date.now,
  ) {}

  async list(
    userId: number,
    q: { deviceId?: number; kind?: NotificationKind; state?: NotificationState; before?: number; limit?: number },
  ): Promise<NotificationsResponse> {
    const limit = Math.min(q.limit ?? DEFAULT_PAGE, NOTIFICATIONS_PAGE_MAX);
    const [rows, unread] = await Promise.all([this.repo.list(userId, q, limit + 1), this.repo.unreadCount(userId)]);
    const now = this.now();
    const page = rows.slice(0, limit);
    return {
      items: page.map((r) => itemOf(r, now)),
      unread,
      nextBefore: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
    };
  }

  unreadCount(userId: number): Promise<number> {
    return this.repo.unreadCount(userId);
  }

  /** Marks a notification read (acknowledging also acknowledges it); another user's id is not found. */
  async mark(userId: number, id: number, acknowledge: boolean): Promise<NotificationItem> {
    if (!(await this.repo.mark(userId, id, this.now(), acknowledge))) throw notificationNotFound();
    const row = await this.repo.findForUser(userId, id);
    if (!row) throw notificationNotFound();
    return itemOf(row, this.now());
  }

  async markAllRead(userId: number): Promise<number> {
    await this.repo.markAllRead(userId, this.now());
    return this.repo.unreadCount(userId);
  }

  async subscribe(userId: number, s: PushSubscriptionRequest): Promise<void> {
    const problem = await this.push.check(s.endpoint);
    if (problem) throw badRequest('endpoint', problem);
    if (!(await this.push.subscribe(userId, s, this.now()))) throw keyedError(409, 'errors.pushSubscriptionLimit');
  }

  unsubscribe(userId: number, endpoint: string): Promise<boolean> {
    return this.push.unsubscribe(userId, endpoint);
  }
}
