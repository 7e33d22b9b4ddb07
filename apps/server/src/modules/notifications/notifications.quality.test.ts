import { DEFAULT_NOTIFICATION_SETTINGS, localWeek, type NotificationItem, type NotificationSettings } from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { NotificationRow } from '../../storage/schema.js';
import { buildTestApp, signUp } from '../../test/app.js';
import { buildTestDeployment, type TestDeployment } from '../../test/instances.js';
import { DIALECTS } from '../../test/storage.js';
import { type QualityWeekReport, qualityExtra } from './notifications.quality.js';
import { alarmMail, pushPayload } from './notifications.texts.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
const DAY = 86_400_000;
const WEEK = '2026-11-16';
const { from, to } = localWeek(WEEK, TZ);
/** Monday 2026-11-23 10:00 in Warsaw: the week of the 16th is the last complete one. */
const MONDAY_MORNING = to + 10 * 60 * MIN;
type Values = Record<string, number>;
type User = Awaited<ReturnType<typeof signUp>>;

/** Readings every minute over the week, phase voltages per instant. */
function week(values: (t: number) => [number, number, number]) {
  const out: { ts: string; values: Values }[] = [];
  for (let t = from; t < to; t += MIN) {
    const [a, b, c] = values(t);
    out.push({
      ts: new Date(t).toISOString(),
      values: { vave1: a, vave2: b, vave3: c, vmin1: a - 1, vmin2: b - 1, vmin3: c - 1, vmax1: a + 1, vmax2: b + 1, vmax3: c + 1 },
    });
  }
  return out;
}
// Tuesday 12:00 to Wednesday 00:00 local: phase 2 at 256 V, 72 of 1,008 bins (7.1 %), above 253 V (N1 and N2).
const tue12 = from + DAY + 12 * 60 * MIN;
const failing = week((t) => [230, t >= tue12 && t < tue12 + 12 * 60 * MIN ? 256 : 230, 231]);
const passing = week(() => [230, 231, 229]);

async function addDevice(app: FastifyInstance, who: User, mac: string, settings: Partial<NotificationSettings>, data: typeof failing) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: who.auth,
    payload: { name: `Meter ${mac.slice(-2)}`, mac, typeCode: 13 },
  });
  expect(res.statusCode, res.body).toBe(200);
  const d = res.json() as { device: { id: number }; ingestKey: string };
  const put = await app.inject({
    method: 'PUT',
    url: `/api/devices/${d.device.id}/notifications`,
    headers: who.auth,
    payload: { ...DEFAULT_NOTIFICATION_SETTINGS, disableAtNight: false, ...settings },
  });
  expect(put.statusCode, put.body).toBe(200);
  for (let i = 0; i < data.length; i += 5000) {
    const r = await app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': d.ingestKey },
      payload: { readings: data.slice(i, i + 5000) },
    });
    expect(r.statusCode, r.body).toBe(200);
  }
  return d.device.id;
}

const stored = (ctx: AppContext, id: number) =>
  ctx.storage.db.selectFrom('notifications').selectAll().where('device_id', '=', id).where('kind', '=', 'quality_week_failed').execute();
const checked = (ctx: AppContext, id: number) =>
  ctx.storage.db.selectFrom('quality_weeks').select(['week', 'verdict']).where('device_id', '=', id).execute();

describe.each(DIALECTS)('weekly EN 50160 notification (%s)', (dialect) => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let user: User;
  let fail: number;
  let pass: number;
  let off: number;
  let fresh: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 }, { notifications: { qualityCheckMs: null } });
    user = await signUp(t.app);
    fail = await addDevice(t.app, user, '61:00:00:00:00:01', { qualityWeekFailed: true }, failing);
    pass = await addDevice(t.app, user, '61:00:00:00:00:02', { qualityWeekFailed: true }, passing);
    off = await addDevice(t.app, user, '61:00:00:00:00:03', {}, failing);
    // Switch on, no readings at all: no report for its weeks (nothing sent, each week not asked again).
    fresh = await addDevice(t.app, user, '61:00:00:00:00:04', { qualityWeekFailed: true }, []);
  }, 120_000);
  afterAll(async () => t?.close());

  /** Ticks a few times at `now` (a tick computes at most two weeks): the notifications recorded. */
  const ticks = async (now: number, n = 3) => {
    let sent = 0;
    for (let i = 0; i < n; i++) sent += (await t.ctx.notifications.quality?.tick(now)) ?? Number.NaN;
    return sent;
  };

  it('notifies a failing week once (checks after it send nothing); a passing week and a switch off send nothing', async () => {
    expect(t.ctx.notifications.quality).not.toBeNull();
    // Sunday evening the week is not over: the week before it is judged (no readings then: nothing to report).
    expect(await ticks(from + 6 * DAY + 20 * 60 * MIN)).toBe(0);
    expect(await checked(t.ctx, fail)).toEqual([{ week: '2026-11-09', verdict: 'none' }]);

    expect(await ticks(MONDAY_MORNING)).toBe(1);
    await t.ctx.notifications.settled();
    expect(await ticks(MONDAY_MORNING + 5 * MIN)).toBe(0);

    const rows = await stored(t.ctx, fail);
    expect(rows.map((r) => [r.started_at, r.ended_at, r.worst_value, r.worst_phase, r.threshold, r.held])).toEqual([
      [from, to, 7.1, 2, 5, null],
    ]);
    expect(await stored(t.ctx, pass)).toEqual([]);
    expect(await stored(t.ctx, off)).toEqual([]);
    expect(await stored(t.ctx, fresh)).toEqual([]);
    expect(await checked(t.ctx, fail)).toEqual(
      expect.arrayContaining([
        { week: '2026-11-09', verdict: 'none' },
        { week: WEEK, verdict: 'fail' },
      ]),
    );
    expect(await checked(t.ctx, pass)).toEqual(expect.arrayContaining([{ week: WEEK, verdict: 'pass' }]));
    expect(await checked(t.ctx, off)).toEqual([]);
    expect(await checked(t.ctx, fresh)).toEqual(expect.arrayContaining([{ week: WEEK, verdict: 'none' }]));

    // The list shows it as a cleared week with its share of the worst phase.
    const list = await t.app.inject({ method: 'GET', url: `/api/notifications?deviceId=${fail}`, headers: user.auth });
    expect(list.statusCode).toBe(200);
    const items = (list.json() as { items: NotificationItem[] }).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'quality_week_failed',
      level: 'warning',
      state: 'cleared',
      worstValue: 7.1,
      unit: '%',
      phase: 2,
      threshold: 5,
      durationSeconds: 7 * 86_400,
    });
  });

  it('a device switched on after its week was left out is judged at the next check, once', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${off}/notifications`,
      headers: user.auth,
      payload: { ...DEFAULT_NOTIFICATION_SETTINGS, disableAtNight: false, qualityWeekFailed: true },
    });
    expect(put.statusCode).toBe(200);
    expect(await ticks(MONDAY_MORNING + 10 * MIN)).toBe(1);
    expect(await ticks(MONDAY_MORNING + 15 * MIN)).toBe(0);
    expect((await stored(t.ctx, off)).map((r) => r.worst_value)).toEqual([7.1]);
  });

  it('with quiet hours on, a week is not judged at night (it would be held and never pushed): in the morning it is', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${off}/notifications`,
      headers: user.auth,
      payload: { ...DEFAULT_NOTIFICATION_SETTINGS, disableAtNight: true, qualityWeekFailed: true },
    });
    expect(put.statusCode).toBe(200);
    // The next Monday (the week of the 23rd has no readings: not assessable, nothing sent): 00:30 local nothing, 08:00 judged.
    const next = to + 7 * DAY;
    expect(await ticks(next + 30 * MIN)).toBe(0);
    expect((await checked(t.ctx, off)).map((c) => c.week)).not.toContain('2026-11-23');
    expect(await ticks(next + 8 * 60 * MIN)).toBe(0);
    expect(await checked(t.ctx, off)).toEqual(expect.arrayContaining([{ week: '2026-11-23', verdict: 'not-assessable' }]));
  });
});

describe('weekly EN 50160 notification: texts and link', () => {
  const report: QualityWeekReport = {
    verdict: 'fail',
    fromMs: from,
    toMs: to,
    timezone: TZ,
    phases: [
      { phase: 1, n: 1008, n1: 0, n2: 0, n1Share: 0, verdict: 'pass' },
      { phase: 2, n: 1008, n1: 72, n2: 72, n1Share: 72 / 1008, verdict: 'fail' },
      { phase: 3, n: 1008, n1: 3, n2: 1, n1Share: 3 / 1008, verdict: 'fail' },
    ],
  };
  const row = {
    id: 9,
    user_id: 1,
    device_id: 7,
    kind: 'quality_week_failed',
    level: 'warning',
    started_at: from,
    ended_at: to,
    worst_value: 7.1,
    worst_phase: 2,
    threshold: 5,
    occurrences: 1,
    held: null,
    push_sent: 0,
    email_sent: 0,
    read_at: null,
    acknowledged_at: null,
    created_at: MONDAY_MORNING,
  } satisfies NotificationRow;
  const extra = qualityExtra(
    7,
    WEEK,
    report,
    report.phases.filter((p) => p.verdict === 'fail'),
  );

  it('the push opens the week’s report and says which phase failed by how much', () => {
    const p = pushPayload('en', 7, 'Main meter', [row], extra.path);
    expect(p.url).toBe('/device/quality/7?week=2026-11-16');
    expect(p.title).toBe('Week outside EN 50160');
    expect(p.body).toBe(
      'Main meter: the supply did not meet EN 50160 last week; phase 2 was outside 207–253 V for 7.1 % of the time (at most 5 % allowed).',
    );
  });

  it('the mail lists every failing phase with N1 share and N2, in the user’s language, and links the report', () => {
    const en = alarmMail('en', 'a@example.com', { id: 7, name: 'Main meter' }, [row], {
      publicUrl: 'https://pw.example/',
      timezone: TZ,
      extra,
    });
    expect(en.subject).toBe('Week outside EN 50160: Main meter');
    expect(en.text).toContain('Week 2026-11-16 to 2026-11-22 (Europe/Warsaw)');
    expect(en.text).toContain(
      'Phase 2 failed: 7.1 % of 10-minute means outside 207–253 V (at most 5 %), 72 outside 195.5–253 V (none allowed).',
    );
    expect(en.text).toContain('Phase 3 failed: 0.3 %');
    expect(en.text).not.toContain('Phase 1 failed');
    expect(en.text).toContain('Open the week’s report: https://pw.example/device/quality/7?week=2026-11-16');
    expect(en.html).toContain('href="https://pw.example/device/quality/7?week=2026-11-16"');
    const pl = alarmMail('pl', 'a@example.com', { id: 7, name: 'Licznik' }, [row], {
      publicUrl: 'https://pw.example',
      timezone: TZ,
      extra,
    });
    expect(pl.subject).toBe('Tydzień poza normą EN 50160: Licznik');
    expect(pl.text).toContain('Faza 2 nie spełnia normy: 7,1 %');
    const tr = alarmMail('tr', 'a@example.com', { id: 7, name: 'Sayaç' }, [row], { publicUrl: 'https://pw.example', timezone: TZ, extra });
    expect(tr.text).toContain('2. faz geçemedi: 10 dakikalık ortalamaların %7,1');
  });
});

describe('weekly EN 50160 notification: two instances on one PostgreSQL', () => {
  let d: TestDeployment;
  beforeAll(async () => {
    d = await buildTestDeployment(2, { rawRetentionDays: 36_500 });
  }, 120_000);
  afterAll(async () => d?.close());

  it('a failing week is recorded and sent once when both instances check it at the same moment', async () => {
    const [a, b] = d.instances as [(typeof d.instances)[number], (typeof d.instances)[number]];
    // Their own ticks (real clock) stop: the test's ticks run at its Monday morning.
    await Promise.all([a.ctx.notifications.quality?.stop(), b.ctx.notifications.quality?.stop()]);
    const user = await signUp(a.app);
    const id = await addDevice(a.app, user, '62:00:00:00:00:01', { qualityWeekFailed: true }, failing);
    const sent = await Promise.all([a.ctx.notifications.quality?.tick(MONDAY_MORNING), b.ctx.notifications.quality?.tick(MONDAY_MORNING)]);
    expect((sent[0] ?? 0) + (sent[1] ?? 0)).toBe(1);
    await Promise.all([a.ctx.notifications.settled(), b.ctx.notifications.settled()]);
    const again = await Promise.all([
      a.ctx.notifications.quality?.tick(MONDAY_MORNING + MIN),
      b.ctx.notifications.quality?.tick(MONDAY_MORNING + MIN),
    ]);
    expect(again).toEqual([0, 0]);
    expect((await stored(a.ctx, id)).map((r) => r.worst_phase)).toEqual([2]);
    expect(await checked(a.ctx, id)).toEqual(expect.arrayContaining([{ week: WEEK, verdict: 'fail' }]));
  });
});
