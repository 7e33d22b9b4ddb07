import { NOTIFICATION_KIND_LEVEL, type NotificationKind } from '@phasewatch/shared';
import type { Realtime } from '../../../realtime/index.js';
import type { NotificationRow } from '../../../storage/schema.js';
import { toItem } from '../notifications.items.js';
import type { NotificationMetrics } from '../notifications.metrics.js';

/**
 * The page: every new alarm goes to its owner's hub connections (on every instance) as the `notification`
 * event, held or not (the bell counts it; the web app shows a toast only for an alarm not held).
 */
export class HubChannel {
  constructor(
    private readonly realtime: Pick<Realtime, 'sendToUser'>,
    private readonly metrics: NotificationMetrics,
  ) {}

  deliver(userId: number, device: { name: string; typeCode: number }, rows: readonly NotificationRow[], now: number): void {
    for (const row of rows) {
      const kind = row.kind as NotificationKind;
      this.realtime.sendToUser(userId, 'notification', {
        id: row.id,
        deviceId: row.device_id,
        level: NOTIFICATION_KIND_LEVEL[kind],
        message: `notifications.kinds.${kind}`,
        ts: row.started_at,
        item: toItem(row, device, now),
      });
    }
    this.metrics.delivery('hub', 'sent', rows.length);
  }
}
