import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import { latestRawReadingsQuery } from './readings.latest.js';

const MIN = 60_000;

type Reading = { ts: number; values: Record<string, number> };
type ListItem = { id: number; latestReading: { ts: number; values: Record<string, number> } | null };

describe.each(DIALECTS)('device list carries each device its latest reading (%s)', (dialect) => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    alice = await signUp(t.app);
    bob = await signUp(t.app);
  });
  afterAll(async () => t.close());

  const device = async (auth: Record<string, string>, mac: string, typeCode = 13) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: auth, payload: { name: mac, mac, typeCode } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { device: { id: number }; ingestKey: string };
  };
  const post = async (key: string, readings: Reading[]) => {
    for (let i = 0; i < readings.length; i += 5000) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': key },
        payload: { readings: readings.slice(i, i + 5000).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const list = async (auth: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/devices', headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ListItem[];
  };

  it('answers the newest row of each device (not the last one sent), null without readings, only the own devices', async () => {
    const start = Date.UTC(2026, 0, 31, 22, 0); // readings across a month boundary: two PostgreSQL partitions
    const meter = await device(alice.auth, '30:00:00:00:00:01');
    const quiet = await device(alice.auth, '30:00:00:00:00:02');
    const other = await device(bob.auth, '30:00:00:00:00:03');
    const readings = Array.from({ length: 300 }, (_, i) => ({
      ts: start + i * MIN,
      values: { pave1: i, vave1: 230.5, eai1: 10 + i / 1000 },
    }));
    await post(meter.ingestKey, readings);
    // A late batch of older readings does not change which one is the newest.
    await post(meter.ingestKey, [{ ts: start - 10 * MIN, values: { pave1: -1 } }]);
    await post(other.ingestKey, [{ ts: start, values: { tempmain: 21.5 } }]);

    const mine = await list(alice.auth);
    const byId = new Map(mine.map((d) => [d.id, d]));
    expect(mine.map((d) => d.id).sort()).toEqual([meter.device.id, quiet.device.id].sort());
    expect(byId.get(meter.device.id)?.latestReading).toEqual({ ts: start + 299 * MIN, values: { pave1: 299, vave1: 230.5, eai1: 10.299 } });
    expect(byId.get(quiet.device.id)?.latestReading).toBeNull();
    expect((await list(bob.auth))[0]?.latestReading).toEqual({ ts: start, values: { tempmain: 21.5 } });

    // The single device answer carries it too.
    const one = await t.app.inject({ method: 'GET', url: `/api/devices/${meter.device.id}`, headers: alice.auth });
    expect(one.json().latestReading.ts).toBe(start + 299 * MIN);
  });

  it('finds the newest row through the primary key, without scanning a device history', async () => {
    const d = await device(alice.auth, '30:00:00:00:00:09');
    const start = Date.UTC(2026, 1, 20);
    // Two weeks of minutes: enough rows that a scan would be the costly plan PostgreSQL avoids.
    await post(
      d.ingestKey,
      Array.from({ length: 20_000 }, (_, i) => ({ ts: start + i * MIN, values: { pave1: i % 500 } })),
    );
    const userId = Number((await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: alice.auth })).json().id);
    const compiled = latestRawReadingsQuery(userId).compile(t.ctx.storage.db);
    if (dialect === 'sqlite') {
      const plan = (t.ctx.storage.sqlite?.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.parameters) ?? []) as {
        detail: string;
      }[];
      const details = plan.map((p) => p.detail);
      expect(
        details.some((x) => /SEARCH r USING PRIMARY KEY \(device_id=\? AND ts=\?\)/.test(x)),
        details.join('\n'),
      ).toBe(true);
      expect(
        details.some((x) => /SEARCH m USING PRIMARY KEY \(device_id=\?\)/.test(x)),
        details.join('\n'),
      ).toBe(true);
      expect(
        details.filter((x) => /^SCAN (r|m)\b/.test(x)),
        details.join('\n'),
      ).toEqual([]);
    } else {
      await sql`ANALYZE readings`.execute(t.ctx.storage.db);
      const res = await t.ctx.storage.pgPool?.query(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]);
      const text = (res?.rows ?? []).map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index (Only )?Scan/);
      // The empty DEFAULT partition may be read as it is (0 rows); month partitions go through their keys.
      expect(text, text).not.toMatch(/Seq Scan on readings_p/);
    }
  });
});
