import { startOfLocalDay } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { clearOfLocalMidnight } from '../../test/clock.js';
import { DIALECTS } from '../../test/storage.js';

const MIN = 60_000;
const DAY = 86_400_000;

/**
 * A timezone change: local days are rebuilt in the new zone in the background, a month per writer call,
 * never in the read that finds them stale; reads meanwhile answer from the quarter-hours, the same as
 * once the days are rebuilt.
 */
describe.each(DIALECTS)('local days after a timezone change (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let device: number;
  const days = 75;
  const start = startOfLocalDay(Date.now() - (days + 2) * DAY, 'Europe/Warsaw');
  const end = start + days * DAY;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'tz', mac: '30:00:00:00:7A:01', typeCode: 20 },
    });
    device = res.json().device.id;
    const key = res.json().ingestKey as string;
    // A reading every 10 minutes; the counter's pace changes with the hour of day, so days of different zones differ.
    const readings = [];
    let counter = 100;
    for (let ts = start; ts < end; ts += 10 * MIN) {
      counter += 0.01 + ((ts / 3_600_000) % 24) * 0.002;
      readings.push({
        ts: new Date(ts).toISOString(),
        values: { eai1: Math.round(counter * 1000) / 1000, vave1: 230 + ((ts / 600_000) % 7) },
      });
    }
    for (let i = 0; i < readings.length; i += 5000) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': key },
        payload: { readings: readings.slice(i, i + 5000) },
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    await t.ctx.telemetry.compactNow();
  });
  afterAll(async () => t?.close());

  const zone = async (timezone: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/update',
      headers: user.auth,
      payload: { fullName: 'Tz', country: 'PL', timezone, language: 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const figures = async () => {
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: user.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const energy = await get(`/api/devices/${device}/energy`);
    // The spans up to now end at the moment asked; their energy is what is compared.
    for (const span of ['today', 'month', 'year', 'billingPeriod']) delete energy[span].to;
    return {
      daily: await get(`/api/devices/${device}/readings?from=${start - DAY}&to=${end + DAY}&interval=24h&params=eai1,vave1`),
      energy,
    };
  };
  /**
   * The energy spans (today, month, year, billing period) start at the server's local midnight: figures
   * compared across a New York midnight would differ, so each test starts with one at least this far off.
   */
  const MIDNIGHT_MARGIN_MS = 60_000;
  const stale = (tz: string) => t.ctx.telemetry.readingsRepository.dayLevelStale(device, tz);

  it('answers reads at once from the quarter-hours, rebuilds in the background a month at a time, and answers the same after', async () => {
    const repo = t.ctx.telemetry.readingsRepository;
    // Steps wait at a gate until the reads are done: the reads answer without any (the background may
    // have asked for one meanwhile, and waits).
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const real = repo.rebuildDaysStep.bind(repo);
    const steps = vi.spyOn(repo, 'rebuildDaysStep').mockImplementation(async (...args) => {
      await gate;
      return real(...args);
    });
    try {
      await clearOfLocalMidnight(['America/New_York'], MIDNIGHT_MARGIN_MS);
      const warsaw = await figures();
      await zone('America/New_York');
      const meanwhile = await figures();
      // The reads rebuilt nothing themselves: the Warsaw days are all still there.
      expect(await stale('America/New_York')).toBe(true);
      open();
      expect(meanwhile.daily.timezone).toBe('America/New_York');
      for (const ts of meanwhile.daily.ts as number[]) expect(startOfLocalDay(ts, 'America/New_York')).toBe(ts);
      expect(meanwhile.daily.ts).not.toEqual(warsaw.daily.ts);
      // The same total energy, cut at other midnights.
      expect(meanwhile.energy.measuredTotalKwh).toBeCloseTo(warsaw.energy.measuredTotalKwh, 6);

      await t.ctx.telemetry.rebuildDaysNow();
      // 75 days at 31 a step: three steps at least, each its own writer call.
      expect(steps.mock.calls.length).toBeGreaterThanOrEqual(3);
      expect(await stale('America/New_York')).toBe(false);
      expect(await figures()).toEqual(meanwhile);
    } finally {
      open();
      steps.mockRestore();
    }
  }, 120_000);

  it('a change back while a rebuild runs ends it, and the days end up in the zone the owner has', async () => {
    const repo = t.ctx.telemetry.readingsRepository;
    await clearOfLocalMidnight(['America/New_York'], MIDNIGHT_MARGIN_MS);
    const before = await figures();
    await zone('Asia/Kolkata');
    const kolkata = await figures();
    // One step in Kolkata, then back to New York: the rest of Kolkata's rebuild stops at its next step.
    // (Stored by its canonical name, as the answers name it.)
    expect(await repo.rebuildDaysStep(device, kolkata.daily.timezone, null)).not.toBeNull();
    await zone('America/New_York');
    expect(await stale('America/New_York')).toBe(true);
    expect(await figures()).toEqual(before);
    await t.ctx.telemetry.rebuildDaysNow();
    expect(await stale('America/New_York')).toBe(false);
    expect(await figures()).toEqual(before);
    // Kolkata's half-hour offset cuts days between full hours: its days were its own.
    for (const ts of kolkata.daily.ts as number[]) expect(startOfLocalDay(ts, 'Asia/Kolkata')).toBe(ts);
    expect((kolkata.daily.ts as number[]).some((ts) => ts % 3_600_000 !== 0)).toBe(true);
  }, 120_000);
});
