import type { NotificationItem } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/i18n';
import { chartLink } from './components/notification-card';
import { readFilters } from './components/notification-center';
import { describeNotification, formatDuration } from './notification-text';

const item = (over: Partial<NotificationItem> = {}): NotificationItem => ({
  id: 1,
  deviceId: 2,
  deviceName: 'Main meter',
  deviceTypeCode: 13,
  kind: 'voltage_drop',
  level: 'warning',
  state: 'active',
  startedAt: '2026-11-27 10:00:00',
  endedAt: null,
  durationSeconds: 90,
  worstValue: 198.64,
  unit: 'V',
  phase: 2,
  threshold: 207,
  occurrences: 1,
  read: false,
  acknowledgedAt: null,
  held: null,
  sent: { push: false, email: false },
  ...over,
});

describe('notification texts', () => {
  it('describes an alarm in each language with its value, phase and threshold', () => {
    expect(describeNotification(i18n.getFixedT('en'), 'en', item())).toBe('Phase 2 fell to 198.6 V, below 207 V');
    expect(describeNotification(i18n.getFixedT('pl'), 'pl', item())).toBe('Faza 2 spadła do 198,6 V, poniżej 207 V');
    expect(
      describeNotification(i18n.getFixedT('tr'), 'tr', item({ kind: 'consumption', unit: 'kWh', worstValue: 1234.5, threshold: 1200 })),
    ).toBe('Bu fatura döneminde 1.234,5 kWh, 1.200 kWh üstünde');
    expect(describeNotification(i18n.getFixedT('en'), 'en', item({ kind: 'offline', unit: '', worstValue: null, threshold: null }))).toBe(
      'The device stopped sending readings',
    );
  });

  it('describes a week that failed EN 50160 (share of the worst phase, %) and links its report, not a chart', () => {
    const week = item({
      kind: 'quality_week_failed',
      state: 'cleared',
      unit: '%',
      worstValue: 7.14,
      threshold: 5,
      phase: 2,
      startedAt: '2026-11-15 23:00:00',
      endedAt: '2026-11-22 23:00:00',
    });
    expect(describeNotification(i18n.getFixedT('en'), 'en', week)).toBe('Phase 2 outside 207–253 V for 7.1 % of the week (at most 5 %)');
    expect(describeNotification(i18n.getFixedT('pl'), 'pl', week)).toBe('Faza 2 poza 207–253 V przez 7,1 % tygodnia (najwyżej 5 %)');
    expect(describeNotification(i18n.getFixedT('tr'), 'tr', week)).toBe('2. faz haftanın %7,1 kadarında 207–253 V dışında (en fazla %5)');
    expect(chartLink(week)).toBe('/device/quality/2?week=2026-11-16');
    expect(chartLink(item())).toBe('/device-energy-details/2?date=2026-11-27&interval=15m');
  });

  it('gives durations as their two largest units', () => {
    const t = i18n.getFixedT('en');
    expect(formatDuration(t, 0)).toBe('0 s');
    expect(formatDuration(t, 45)).toBe('45 s');
    expect(formatDuration(t, 90)).toBe('1 min 30 s');
    expect(formatDuration(t, 3600 + 5 * 60 + 7)).toBe('1 h 5 min');
    expect(formatDuration(t, 2 * 86_400 + 30)).toBe('2 d');
    expect(formatDuration(i18n.getFixedT('pl'), 7200)).toBe('2 godz.');
  });

  it('reads the list filters from the URL, ignoring what is not one', () => {
    expect(readFilters(new URLSearchParams('deviceId=7&kind=weak_signal&state=cleared'))).toEqual({
      deviceId: 7,
      kind: 'weak_signal',
      state: 'cleared',
    });
    expect(readFilters(new URLSearchParams('deviceId=07&kind=fire&state=gone'))).toEqual({});
  });
});
