import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS, notificationSettingsSchema } from '../telemetry/device.schema.js';
import {
  isNightTime,
  NOTIFICATION_KIND_LEVEL,
  NOTIFICATION_KIND_UNIT,
  notificationsQuerySchema,
  pushSubscriptionRequestSchema,
} from './notification.schema.js';

const WARSAW = 'Europe/Warsaw';

describe('isNightTime (22:00–07:00 local)', () => {
  it('is quiet from 22:00 across midnight to 06:59 and not from 07:00 to 21:59', () => {
    // 2026-01-15, Warsaw is UTC+1.
    const at = (h: number, m = 0) => Date.UTC(2026, 0, 15, h - 1, m);
    expect(isNightTime(at(21, 59), WARSAW)).toBe(false);
    expect(isNightTime(at(22, 0), WARSAW)).toBe(true);
    expect(isNightTime(at(23, 59), WARSAW)).toBe(true);
    expect(isNightTime(Date.UTC(2026, 0, 15, 23, 30), WARSAW)).toBe(true); // 00:30 on the 16th
    expect(isNightTime(at(6, 59), WARSAW)).toBe(true);
    expect(isNightTime(at(7, 0), WARSAW)).toBe(false);
    expect(isNightTime(at(12, 0), WARSAW)).toBe(false);
  });

  it('follows the wall clock across the spring change (a 8-hour night)', () => {
    // 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
    expect(isNightTime(Date.UTC(2026, 2, 28, 20, 59), WARSAW)).toBe(false); // 21:59 CET
    expect(isNightTime(Date.UTC(2026, 2, 28, 21, 0), WARSAW)).toBe(true); // 22:00 CET
    expect(isNightTime(Date.UTC(2026, 2, 29, 0, 59), WARSAW)).toBe(true); // 01:59 CET
    expect(isNightTime(Date.UTC(2026, 2, 29, 1, 0), WARSAW)).toBe(true); // 03:00 CEST
    expect(isNightTime(Date.UTC(2026, 2, 29, 4, 59), WARSAW)).toBe(true); // 06:59 CEST
    expect(isNightTime(Date.UTC(2026, 2, 29, 5, 0), WARSAW)).toBe(false); // 07:00 CEST
    // The same UTC instant a day earlier, before the change, was still night (06:00 CET).
    expect(isNightTime(Date.UTC(2026, 2, 28, 5, 0), WARSAW)).toBe(true);
  });

  it('follows the wall clock across the autumn change (a 10-hour night; 02:30 twice, quiet both times)', () => {
    // 2026-10-25: 03:00 CEST becomes 02:00 CET at 01:00 UTC.
    expect(isNightTime(Date.UTC(2026, 9, 24, 19, 59), WARSAW)).toBe(false); // 21:59 CEST
    expect(isNightTime(Date.UTC(2026, 9, 24, 20, 0), WARSAW)).toBe(true); // 22:00 CEST
    expect(isNightTime(Date.UTC(2026, 9, 25, 0, 30), WARSAW)).toBe(true); // 02:30 CEST
    expect(isNightTime(Date.UTC(2026, 9, 25, 1, 30), WARSAW)).toBe(true); // 02:30 CET
    expect(isNightTime(Date.UTC(2026, 9, 25, 5, 59), WARSAW)).toBe(true); // 06:59 CET
    expect(isNightTime(Date.UTC(2026, 9, 25, 6, 0), WARSAW)).toBe(false); // 07:00 CET
  });

  it('uses the zone it is given: the same instant is night in one zone and day in another', () => {
    const ts = Date.UTC(2026, 5, 1, 4, 0); // 06:00 in Warsaw, 14:00 in Sydney, 00:00 in New York
    expect(isNightTime(ts, WARSAW)).toBe(true);
    expect(isNightTime(ts, 'Australia/Sydney')).toBe(false);
    expect(isNightTime(ts, 'America/New_York')).toBe(true);
  });
});

describe('notification settings', () => {
  it('needs emailEnabled beside pushEnabled, off by default', () => {
    expect(DEFAULT_NOTIFICATION_SETTINGS.emailEnabled).toBe(false);
    const { emailEnabled: _, ...without } = DEFAULT_NOTIFICATION_SETTINGS;
    expect(notificationSettingsSchema.safeParse(without).success).toBe(false);
    expect(notificationSettingsSchema.parse({ ...DEFAULT_NOTIFICATION_SETTINGS, emailEnabled: true }).emailEnabled).toBe(true);
  });

  it('has the weekly EN 50160 switch off by default and optional (settings saved before it stay valid)', () => {
    expect(DEFAULT_NOTIFICATION_SETTINGS.qualityWeekFailed).toBeUndefined();
    expect(notificationSettingsSchema.parse(DEFAULT_NOTIFICATION_SETTINGS).qualityWeekFailed).toBeUndefined();
    expect(notificationSettingsSchema.parse({ ...DEFAULT_NOTIFICATION_SETTINGS, qualityWeekFailed: true }).qualityWeekFailed).toBe(true);
    expect(notificationSettingsSchema.safeParse({ ...DEFAULT_NOTIFICATION_SETTINGS, qualityWeekFailed: 'yes' }).success).toBe(false);
    expect(NOTIFICATION_KIND_LEVEL.quality_week_failed).toBe('warning');
    expect(NOTIFICATION_KIND_UNIT.quality_week_failed).toBe('%');
  });
});

describe('push subscription', () => {
  const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' };
  it('takes what PushSubscription.toJSON() gives', () => {
    expect(pushSubscriptionRequestSchema.safeParse({ endpoint: 'https://push.example/abc', keys, expirationTime: null }).success).toBe(
      true,
    );
  });
  it('refuses keys of the wrong length and unknown fields', () => {
    expect(pushSubscriptionRequestSchema.safeParse({ endpoint: 'https://p.example/a', keys: { ...keys, auth: 'AAAA' } }).success).toBe(
      false,
    );
    expect(pushSubscriptionRequestSchema.safeParse({ endpoint: 'https://p.example/a', keys: { ...keys, p256dh: 'AA' } }).success).toBe(
      false,
    );
    expect(pushSubscriptionRequestSchema.safeParse({ endpoint: 'not a url', keys }).success).toBe(false);
    expect(pushSubscriptionRequestSchema.safeParse({ endpoint: 'https://p.example/a', keys, extra: 1 }).success).toBe(false);
  });
});

describe('notifications query', () => {
  it('parses filters and bounds the page size', () => {
    expect(notificationsQuerySchema.parse({ deviceId: '3', kind: 'voltage_drop', state: 'active', limit: '20' })).toEqual({
      deviceId: 3,
      kind: 'voltage_drop',
      state: 'active',
      limit: 20,
    });
    expect(notificationsQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(notificationsQuerySchema.safeParse({ limit: '201' }).success).toBe(false);
    expect(notificationsQuerySchema.safeParse({ kind: 'fire' }).success).toBe(false);
  });
});
