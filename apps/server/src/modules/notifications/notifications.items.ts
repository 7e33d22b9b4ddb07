import {
  NOTIFICATION_KIND_LEVEL,
  NOTIFICATION_KIND_UNIT,
  type NotificationHold,
  type NotificationItem,
  type NotificationKind,
  notificationKindSchema,
} from '@phasewatch/shared';
import { serverDate } from '../../http/dates.js';
import type { NotificationRow } from '../../storage/schema.js';

const HOLDS = new Set<string>(['quietHours', 'muted', 'late', 'interval']);

/** A stored notification as the list and the hub show it. */
export function toItem(row: NotificationRow, device: { name: string; typeCode: number }, now: number): NotificationItem {
  const kind = notificationKindSchema.parse(row.kind) as NotificationKind;
  const end = row.ended_at ?? Math.max(now, row.started_at);
  return {
    id: row.id,
    deviceId: row.device_id,
    deviceName: device.name,
    deviceTypeCode: device.typeCode,
    kind,
    level: NOTIFICATION_KIND_LEVEL[kind],
    state: row.ended_at !== null ? 'cleared' : row.acknowledged_at !== null ? 'acknowledged' : 'active',
    startedAt: serverDate(row.started_at),
    endedAt: row.ended_at === null ? null : serverDate(row.ended_at),
    durationSeconds: Math.max(0, Math.round((end - row.started_at) / 1000)),
    worstValue: row.worst_value,
    unit: NOTIFICATION_KIND_UNIT[kind],
    phase: row.worst_phase,
    threshold: row.threshold,
    occurrences: row.occurrences,
    read: row.read_at !== null,
    acknowledgedAt: row.acknowledged_at === null ? null : serverDate(row.acknowledged_at),
    held: row.held !== null && HOLDS.has(row.held) ? (row.held as NotificationHold) : null,
    sent: { push: row.push_sent === 1, email: row.email_sent === 1 },
  };
}
