import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { type ExportJob, localWeek, type PowerQualityResponse } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
const WEEK = '2026-11-16';
const { from, to } = localWeek(WEEK, TZ);
type User = Awaited<ReturnType<typeof signUp>>;
type Values = Record<string, number>;

/** Readings every minute over [a, b), values per instant. */
function readings(a: number, b: number, values: (t: number) => Values) {
  const out: { ts: string; values: Values }[] = [];
  for (let t = a; t < b; t += MIN) out.push({ ts: new Date(t).toISOString(), values: values(t) });
  return out;
}

// Tuesday 12:00–12:20 local: two bins of phase 3 at 255 V; Wednesday 08:00–08:10 local: phase 2 at 190 V;
// Thursday 03:02–03:06 local: phase 1 interrupted (4 minutes: long); Friday 10:00 local: a 1-minute dip on phase 1.
const tue12 = from + 86_400_000 + 12 * 60 * MIN;
const wed8 = from + 2 * 86_400_000 + 8 * 60 * MIN;
const thu3 = from + 3 * 86_400_000 + 3 * 60 * MIN;
const fri10 = from + 4 * 86_400_000 + 10 * 60 * MIN;
function threePhase(t: number): Values {
  const v = [230, 230, 230];
  if (t >= tue12 && t < tue12 + 20 * MIN) v[2] = 255;
  if (t >= wed8 && t < wed8 + 10 * MIN) v[1] = 190;
  if (t >= thu3 + 2 * MIN && t < thu3 + 6 * MIN) v[0] = 0.2;
  const dip = t === fri10;
  return {
    vave1: v[0] as number,
    vave2: v[1] as number,
    vave3: v[2] as number,
    vmin1: dip ? 150.04 : Math.max(0, (v[0] as number) - 1),
    vmin2: (v[1] as number) - 1,
    vmin3: (v[2] as number) - 1,
    vmax1: (v[0] as number) + 1,
    vmax2: (v[1] as number) + 1,
    vmax3: (v[2] as number) + 1,
    frq1: t === fri10 ? 49.4 : 50,
    eai1: 1000 + (t - from) / 3_600_000,
  };
}

describe.each(DIALECTS)('power quality (%s)', (dialect) => {
  let t: TestApp;
  let user: User;
  let other: User;
  let macs = 0;
  const device = async (who: User, typeCode: number, data: { ts: string; values: Values }[]) => {
    const mac = `60:00:00:00:00:${String(++macs).padStart(2, '0')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: who.auth,
      payload: { name: `Meter ${macs}`, mac, typeCode },
    });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as { device: { id: number }; ingestKey: string };
    for (let i = 0; i < data.length; i += 5000) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': d.ingestKey },
        payload: { readings: data.slice(i, i + 5000) },
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    return d.device.id;
  };
  const get = (id: number, week: string, who = user) =>
    t.app.inject({ method: 'GET', url: `/api/devices/${id}/power-quality?week=${week}`, headers: who.auth });
  let meter: number;
  let single: number;
  let thermostat: number;
  let noVoltage: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
    other = await signUp(t.app);
    meter = await device(user, 13, readings(from, to, threePhase));
    // Single-phase: the week with Thursday missing.
    single = await device(
      user,
      20,
      readings(
        from,
        to,
        (x): Values => (x >= from + 3 * 86_400_000 && x < from + 4 * 86_400_000 ? { eai1: 1 } : { vave1: 231.04, eai1: 1 }),
      ),
    );
    thermostat = await device(
      user,
      17,
      readings(from, from + 60 * MIN, () => ({ tempmain: 21 })),
    );
    noVoltage = await device(
      user,
      13,
      readings(from, from + 60 * MIN, () => ({ eai1: 1 })),
    );
  }, 120_000);
  afterAll(async () => t?.close());

  it('answers the week: N/N1/N2 per phase, events, overvoltage with local times, volts to 0.1', async () => {
    const res = await get(meter, WEEK);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as PowerQualityResponse;
    expect(r).toMatchObject({
      from: '2026-11-16T00:00:00+01:00',
      to: '2026-11-23T00:00:00+01:00',
      bins: 1008,
      verdict: 'fail',
      timezone: TZ,
    });
    expect(r.phases).toEqual([
      // Phase 1: the interruption's bin and the dip's bin are flagged, the rest at 230 V.
      { phase: 1, n: 1006, n1: 0, n2: 0, invalid: 0, flagged: 2, min: 230, max: 230, p05: 230, p95: 230, n1Share: 0, verdict: 'pass' },
      // Phase 2: one bin at 190 V: N2 = 1 fails the phase.
      {
        phase: 2,
        n: 1008,
        n1: 1,
        n2: 1,
        invalid: 0,
        flagged: 0,
        min: 190,
        max: 230,
        p05: 230,
        p95: 230,
        n1Share: 1 / 1008,
        verdict: 'fail',
      },
      {
        phase: 3,
        n: 1008,
        n1: 2,
        n2: 2,
        invalid: 0,
        flagged: 0,
        min: 230,
        max: 255,
        p05: 230,
        p95: 230,
        n1Share: 2 / 1008,
        verdict: 'fail',
      },
    ]);
    expect(r.events).toEqual([
      {
        kind: 'interruption',
        phase: 1,
        start: '2026-11-19T03:02:00+01:00',
        startMs: thu3 + 2 * MIN,
        durationSeconds: 240,
        extreme: 0,
        length: 'long',
      },
      { kind: 'dip', phase: 1, start: '2026-11-20T10:00:00+01:00', startMs: fri10, durationSeconds: 60, extreme: 150 },
    ]);
    expect(r.overvoltage).toEqual([
      { start: '2026-11-17T12:00:00+01:00', startMs: tue12, phase: 3, value: 255 },
      { start: '2026-11-17T12:10:00+01:00', startMs: tue12 + 10 * MIN, phase: 3, value: 255 },
    ]);
    expect(r.overvoltageDays.map((d) => d.count)).toEqual([0, 2, 0, 0, 0, 0, 0]);
    expect(r.frequency).toMatchObject({ readings: 10_080, outside47to52: 0, min: 49.4, max: 50 });
    expect(r.frequency?.withinShare).toBeCloseTo(10_079 / 10_080, 12);
    expect(r.trend.phases.map((p) => p.values.length)).toEqual([1008, 1008, 1008]);
    expect(r.device).toEqual({ id: meter, name: 'Meter 1', location: null });
  });

  it('reports a single-phase meter on phase 1 only; a missing day makes the week not assessable', async () => {
    const res = await get(single, WEEK);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as PowerQualityResponse;
    expect(r.phases).toEqual([
      {
        phase: 1,
        n: 864,
        n1: 0,
        n2: 0,
        invalid: 144,
        flagged: 0,
        min: 231,
        max: 231,
        p05: 231,
        p95: 231,
        n1Share: 0,
        verdict: 'not-assessable',
      },
    ]);
    expect(r.verdict).toBe('not-assessable');
  });

  it('refuses a week that is not a Monday, has not started, or ends before the first reading (400, field week)', async () => {
    for (const week of ['2026-11-17', '2026-13-02', 'monday', '2099-01-05', '2026-11-09']) {
      const res = await get(meter, week);
      expect(res.statusCode, `${week}: ${res.body}`).toBe(400);
      expect((res.json() as { errors: { field: string }[] }).errors[0]?.field).toBe('week');
    }
    const keys = await Promise.all(['2026-11-17', '2099-01-05', '2026-11-09'].map(async (w) => (await get(meter, w)).json()));
    expect(keys.map((k) => (k as { errors: { key: string }[] }).errors[0]?.key)).toEqual([
      'quality.errors.notMonday',
      'quality.errors.weekInFuture',
      'quality.errors.weekBeforeFirstReading',
    ]);
    const missing = await t.app.inject({ method: 'GET', url: `/api/devices/${meter}/power-quality`, headers: user.auth });
    expect(missing.statusCode).toBe(400);
  });

  it("answers 404 for another user's device and, with a reason, for a device without voltage readings", async () => {
    expect((await get(meter, WEEK, other)).statusCode).toBe(404);
    expect((await get(999_999, WEEK)).statusCode).toBe(404);
    for (const id of [thermostat, noVoltage]) {
      const res = await get(id, WEEK);
      expect(res.statusCode, res.body).toBe(404);
      expect((res.json() as { errors: { key: string }[] }).errors[0]?.key).toBe('quality.errors.noVoltage');
    }
  });

  it('renders the week as a PDF through the export jobs, in en / pl / tr, checked like the route', { timeout: 120_000 }, async () => {
    const post = (payload: Record<string, unknown>, who = user) =>
      t.app.inject({ method: 'POST', url: '/api/exports', headers: who.auth, payload });
    const texts: Record<string, string> = {};
    for (const language of ['en', 'pl', 'tr'] as const) {
      const res = await post({ deviceId: meter, format: 'pdf', report: 'power-quality', week: WEEK, language });
      expect(res.statusCode, res.body).toBe(202);
      const job = res.json() as ExportJob;
      expect(job).toMatchObject({ fileName: `power-quality-${WEEK}`, format: 'pdf', from, to });
      await t.ctx.jobs.queue.idle();
      const done = (await t.app.inject({ method: 'GET', url: `/api/exports/${job.id}`, headers: user.auth })).json() as ExportJob;
      expect(done.status, done.error ?? '').toBe('done');
      // Loaded and rendered on a job thread, never on the main thread (issue 28).
      const row = await t.ctx.storage.db.selectFrom('jobs').select('result').where('id', '=', job.id).executeTakeFirstOrThrow();
      const ran = (JSON.parse(row.result ?? '{}') as { threadId?: number }).threadId;
      expect(ran).toBeGreaterThan(0);
      expect(ran).not.toBe(threadId);
      const file = await t.app.inject({ method: 'POST', url: `/api/exports/${job.id}/download`, headers: user.auth });
      expect(file.headers['content-type']).toBe('application/pdf');
      const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-pq-'));
      writeFileSync(path.join(dir, 'r.pdf'), file.rawPayload);
      texts[language] = execFileSync('pdftotext', ['-layout', path.join(dir, 'r.pdf'), '-']).toString();
    }
    expect(texts.en).toContain('Supply voltage report (EN 50160)');
    expect(texts.en).toContain('Does not meet EN 50160');
    expect(texts.en).toContain('Meter 1');
    expect(texts.en).toContain('2026-11-16T00:00:00+01:00');
    expect(texts.en).toMatch(/L2\s+1008\s+1 \(0\.1%\)\s+1\s+0\s+0\s+190\.0/);
    expect(texts.en).toContain('2026-11-19T03:02:00+01:00');
    expect(texts.en).toContain('Interruption (long)');
    expect(texts.en).toContain('2026-11-17T12:10:00+01:00');
    expect(texts.en).toContain('Indicative, not a Class A/S instrument');
    expect(texts.pl).toContain('Raport napięcia zasilania (EN 50160)');
    expect(texts.pl).toContain('Niezgodne z EN 50160');
    expect(texts.pl).toContain('Przerwa (długa)');
    expect(texts.tr).toContain('Besleme gerilimi raporu (EN 50160)');
    expect(texts.tr).toContain('Kesinti (uzun)');
    // Checked before queueing: not a Monday, a future week, another user's device, no voltage, not a PDF.
    const bad = async (payload: Record<string, unknown>, status: number, field?: string, who = user) => {
      const res = await post(payload, who);
      expect(res.statusCode, res.body).toBe(status);
      if (field) expect((res.json() as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(field);
    };
    await bad({ deviceId: meter, format: 'pdf', report: 'power-quality', week: '2026-11-17' }, 400, 'week');
    await bad({ deviceId: meter, format: 'pdf', report: 'power-quality', week: '2099-01-05' }, 400, 'week');
    await bad({ deviceId: meter, format: 'pdf', report: 'power-quality' }, 400, 'week');
    await bad({ deviceId: meter, format: 'csv', report: 'power-quality', week: WEEK }, 400, 'format');
    await bad({ deviceId: meter, format: 'pdf', report: 'power-quality', week: WEEK }, 404, undefined, other);
    await bad({ deviceId: thermostat, format: 'pdf', report: 'power-quality', week: WEEK }, 404);
  });
});
