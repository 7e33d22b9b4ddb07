import { type Balance, type Ledger, startOfDate } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

type User = Awaited<ReturnType<typeof signUp>>;
const WAW = 'Europe/Warsaw';
const Q = 15 * 60_000;

/**
 * The research note's worked example (prosumer-settlement.md §5) on 15 June 2025: hour, raw import, raw
 * export, RCE quarter prices. The grid meter imports on phase 1 and exports on phases 2 and 3, so only
 * netting per hour across phases gives 4.2 / 16.6 kWh.
 */
const EXAMPLE: [hour: number, imp: number, exp: number, rce: number[]][] = [
  [0, 1.2, 0, [420, 420, 420, 420]],
  [7, 0.8, 0.3, [480, 480, 480, 480]],
  [11, 0.4, 6.1, [95, 95, 95, 95]],
  [12, 0.2, 7.6, [40, -20, -60, -40]],
  [13, 0.5, 4.0, [60, 60, 60, 60]],
  [19, 2.5, 0, [650, 650, 650, 650]],
];
/** The rooftop solar's production in the exporting hours: 1 kWh more than the grid meter exports. */
const PRODUCTION: Record<number, number> = { 7: 1.3, 11: 7.1, 12: 8.6, 13: 5.0 };

describe.each(DIALECTS)('prosumer API (%s)', (dialect) => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let macs = 0;
  let locationId: number;
  let gridId: number;
  let subId: number;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    alice = await signUp(t.app);
    bob = await signUp(t.app);
  });
  afterAll(async () => t.close());

  const call = (u: User, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: u.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async <T = Record<string, unknown>>(u: User, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await call(u, method, url, payload);
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };
  const fields = (res: { json(): unknown }) => (res.json() as { errors: { field?: string }[] }).errors.map((e) => e.field);

  async function device(u: User, typeCode: number, location: number) {
    const mac = `02:7B:00:00:${String(Math.floor(macs / 100)).padStart(2, '0')}:${String(macs++ % 100).padStart(2, '0')}`;
    return ok<{ device: { id: number; role: string }; ingestKey: string }>(u, 'POST', '/devices', {
      name: `device ${macs}`,
      mac,
      typeCode,
      locationId: location,
    });
  }

  async function ingest(key: string, readings: { ts: number; values: Record<string, number> }[]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': key },
      payload: { readings: readings.map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** Cumulative counters at every quarter boundary of the day, each quarter a quarter of its hour's energy. */
  function dayReadings(day: string, perHour: (h: number) => Record<string, number>) {
    const start = startOfDate(day, WAW);
    const acc: Record<string, number> = {};
    const out: { ts: number; values: Record<string, number> }[] = [];
    for (let k = 0; k <= 96; k++) {
      out.push({ ts: start + k * Q, values: { ...acc } });
      if (k === 96) break;
      for (const [p, e] of Object.entries(perHour(Math.floor(k / 4)))) acc[p] = (acc[p] ?? 100) + e / 4;
      for (const p of Object.keys(perHour(0))) acc[p] ??= 100;
    }
    out[0] = { ts: start, values: Object.fromEntries(Object.keys(out[1]?.values ?? {}).map((p) => [p, 100])) };
    return out;
  }

  it('gives devices roles: solar production, the first three-phase meter grid, others submeter; one grid per location', async () => {
    const loc = await ok<{ id: number }>(alice, 'POST', '/locations', { name: 'Home' });
    locationId = loc.id;
    const grid = await device(alice, 13, locationId);
    const solar = await device(alice, 10, locationId);
    const sub = await device(alice, 13, locationId);
    gridId = grid.device.id;
    subId = sub.device.id;
    expect([grid.device.role, solar.device.role, sub.device.role]).toEqual(['grid', 'production', 'submeter']);
    const list = await ok<{ id: number; role: string; roleSet: boolean }[]>(alice, 'GET', '/devices');
    expect(list.filter((d) => d.id >= gridId).map((d) => [d.role, d.roleSet])).toEqual([
      ['grid', false],
      ['production', false],
      ['submeter', false],
    ]);
    // Making the third meter the grid meter moves the default; a second explicit grid meter is a 400.
    expect((await ok<{ role: string }>(alice, 'PUT', `/devices/${subId}`, { role: 'grid' })).role).toBe('grid');
    expect((await ok<{ role: string }>(alice, 'GET', `/devices/${gridId}`)).role).toBe('submeter');
    const second = await call(alice, 'PUT', `/devices/${gridId}`, { role: 'grid' });
    expect(second.statusCode).toBe(400);
    expect(fields(second)).toEqual(['role']);
    const unknown = await call(alice, 'PUT', `/devices/${gridId}`, { role: 'battery' });
    expect(unknown.statusCode).toBe(400);
    expect(fields(unknown)).toEqual(['role']);
    await ok(alice, 'PUT', `/devices/${subId}`, { role: 'submeter' });
    await ok(alice, 'PUT', `/devices/${gridId}`, { role: null });
    expect((await ok<{ role: string }>(alice, 'GET', `/devices/${gridId}`)).role).toBe('grid');
    expect((await call(bob, 'PUT', `/devices/${gridId}`, { role: 'grid' })).statusCode).toBe(404);
  });

  it('balances the location per day and per hour: netted per hour across phases, production never double counted', async () => {
    const byHour = new Map(EXAMPLE.map(([h, i, e]) => [h, { i, e }]));
    // A second location whose devices send the example (with its keys at hand).
    const loc2 = await ok<{ id: number }>(alice, 'POST', '/locations', { name: 'Example' });
    const g = await device(alice, 13, loc2.id);
    const s = await device(alice, 10, loc2.id);
    const sub = await device(alice, 13, loc2.id);
    await ingest(
      g.ingestKey,
      dayReadings('2025-06-15', (h) => {
        const x = byHour.get(h) ?? { i: 0, e: 0 };
        return { eai1: x.i, eai2: 0, eai3: 0, eae1: 0, eae2: x.e * 0.6, eae3: x.e * 0.4 };
      }),
    );
    await ingest(
      s.ingestKey,
      dayReadings('2025-06-15', (h) => ({ eae1: PRODUCTION[h] ?? 0, eae2: 0, eae3: 0 })),
    );
    await ingest(
      sub.ingestKey,
      dayReadings('2025-06-15', () => ({ eai1: 0.1 })),
    );
    locationId = loc2.id;
    gridId = g.device.id;

    const day = await ok<Balance>(alice, 'GET', `/locations/${loc2.id}/balance?from=2025-06-15&to=2025-06-16&interval=24h`);
    expect(day.gridDeviceId).toBe(g.device.id);
    expect(day.productionDeviceIds).toEqual([s.device.id]);
    expect(day.items).toHaveLength(1);
    expect(day.items[0]?.start).toBe('2025-06-15');
    expect(day.totals).toMatchObject({
      importKWh: 5.6,
      exportKWh: 18,
      nettedImportKWh: 4.2,
      nettedExportKWh: 16.6,
      productionKWh: 22,
      consumptionKWh: 9.6,
      selfConsumptionKWh: 4,
    });
    const hours = await ok<Balance>(alice, 'GET', `/locations/${loc2.id}/balance?from=2025-06-15&to=2025-06-16&interval=1h`);
    expect(hours.items).toHaveLength(24);
    const noon = hours.items.find((i) => i.start === new Date(startOfDate('2025-06-15', WAW) + 12 * 3_600_000).toISOString());
    expect(noon).toMatchObject({ importKWh: 0.2, exportKWh: 7.6, nettedImportKWh: 0, nettedExportKWh: 7.4, productionKWh: 8.6 });
  });

  it('keeps settlement settings per location and answers 400 with the field for bad ones, 404 for another user', async () => {
    expect(await ok(alice, 'GET', `/locations/${locationId}/prosumer`)).toBeNull();
    const saved = await ok(alice, 'PUT', `/locations/${locationId}/prosumer`, {
      scheme: 'net-billing-rcem',
      since: '2025-01-01',
      installationKw: 6.5,
      coefficient: 1.23,
      refundCap: 0.2,
    });
    expect(saved).toMatchObject({ scheme: 'net-billing-rcem', rcemVersion: 'latest', rceClamp: 'quarter', coefficientFrom: '2024-12-27' });
    expect(await ok(alice, 'GET', `/locations/${locationId}/prosumer`)).toEqual(saved);
    for (const [body, field] of [
      [{ ...saved, scheme: 'feed-in' }, 'scheme'],
      [{ ...saved, refundCap: 0.5 }, 'refundCap'],
      [{ ...saved, installationKw: -1 }, 'installationKw'],
      [{ ...saved, since: '2025-13-01' }, 'since'],
    ] as const) {
      const res = await call(alice, 'PUT', `/locations/${locationId}/prosumer`, body);
      expect(res.statusCode).toBe(400);
      expect(fields(res)).toContain(field);
    }
    expect((await call(bob, 'GET', `/locations/${locationId}/prosumer`)).statusCode).toBe(404);
    expect((await call(bob, 'PUT', `/locations/${locationId}/prosumer`, saved)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/locations/${locationId}/balance?from=2025-06-15&to=2025-06-16`)).statusCode).toBe(404);
  });

  it('keeps the ledger to the grosz: net-billing RCEm (worked example b), a user RCEm, net-metering (a), RCE (c)', async () => {
    const tariff = await ok<{ id: number }>(alice, 'POST', `/locations/${locationId}/tariffs`, {
      name: 'G11',
      group: 'G11',
      presetId: 'tauron-g11',
      prices: [{ validFrom: '2025-01-01', area1: 1.2, area2: null, area3: null, fixedMonthly: 30, energyArea1: 0.615 }],
    });
    // The location's energy in the tariff balance is the grid meter's import: neither the PV nor the sub-meter is added.
    const stats = await ok<{ kWh: number; deviceIds: number[] }>(alice, 'GET', `/tariffs/${tariff.id}/stats?from=2025-06-15&to=2025-06-16`);
    expect(stats).toMatchObject({ kWh: 5.6, deviceIds: [gridId] });
    const tariffs = await ok<{ prices: { energyArea1?: number | null }[] }[]>(alice, 'GET', `/locations/${locationId}/tariffs`);
    expect(tariffs[0]?.prices[0]?.energyArea1).toBe(0.615);
    const ledger = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-07`);
    expect(ledger.scheme).toBe('net-billing-rcem');
    expect(ledger.months[0]).toMatchObject({
      month: '2025-06',
      nettedImportKWh: 4.2,
      nettedExportKWh: 16.6,
      price: 136.3,
      priceSource: 'shipped',
      credited: 2.78,
      energyCost: 2.58,
      used: 0,
      cashForEnergy: 2.58,
      balance: 0,
    });
    expect(ledger.months[1]).toMatchObject({ month: '2025-07', balance: 2.78, credited: 0 });
    // Asked from July alone, the deposit still carries June's tranche (the ledger runs from the scheme's start).
    const july = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-07&to=2025-07`);
    expect(july.months.map((m) => [m.month, m.balance])).toEqual([['2025-07', 2.78]]);

    // The user's own RCEm of June 2025 (from an invoice) replaces the shipped value: 16.6 × 0.2 × 1.23 = 4.08.
    const put = await ok(alice, 'PUT', '/prices/rcem/2025-06', { price: 200 });
    expect(put).toMatchObject({ month: '2025-06', price: 200, source: 'user' });
    const list = await ok<{ items: { month: string; source: string; price: number }[] }>(alice, 'GET', '/prices/rcem');
    expect(list.items.find((i) => i.month === '2025-06')).toMatchObject({ price: 200, source: 'user' });
    expect(list.items.find((i) => i.month === '2025-04')).toMatchObject({ price: 163.19, source: 'shipped' });
    const bobs = await ok<{ items: { month: string; source: string }[] }>(bob, 'GET', '/prices/rcem');
    expect(bobs.items.find((i) => i.month === '2025-06')?.source).toBe('shipped');
    const own = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`);
    expect(own.months[0]).toMatchObject({ credited: 4.08, priceSource: 'user' });

    await ok(alice, 'PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-metering', since: '2025-06-10', installationKw: 6.5 });
    const bank = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-05&to=2025-06`);
    expect(bank.months.map((m) => m.month)).toEqual(['2025-05', '2025-06']);
    expect(bank.months[0]).toMatchObject({ bankKWh: 0, nettedExportKWh: 0 });
    expect(bank.months[1]).toMatchObject({ bankKWh: 9.08, bankCreditedKWh: 13.28, bankUsedKWh: 4.2, used: 2.58, cashForEnergy: 0 });
    // A 12 kW installation returns 0.7 kWh per kWh: 11.62 enter, 7.42 are left.
    await ok(alice, 'PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-metering', since: '2025-06-10', installationKw: 12 });
    const big = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`);
    expect(big.months[0]).toMatchObject({ bankCreditedKWh: 11.62, bankKWh: 7.42 });

    await ok(alice, 'PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-billing-rce', since: '2025-01-01', installationKw: 6.5 });
    const missing = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`);
    expect(missing.months[0]).toMatchObject({ credited: 0, missingPrice: true, price: null, unpricedExportKWh: 16.6 });
    const day = startOfDate('2025-06-15', WAW);
    const rows = EXAMPLE.flatMap(([h, , , q]) =>
      q.map((price, i) => ({ user_id: 0, ts: day + h * 3_600_000 + i * Q, price, published_at: null })),
    );
    await t.ctx.storage.db.insertInto('rce_prices').values(rows).execute();
    const rce = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`);
    expect(rce.months[0]).toMatchObject({ credited: 1.02, missingPrice: false, priceSource: 'rce' });
    await ok(alice, 'PUT', `/locations/${locationId}/prosumer`, {
      scheme: 'net-billing-rce',
      since: '2025-01-01',
      installationKw: 6.5,
      rceClamp: 'hour',
    });
    expect((await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`)).months[0]?.credited).toBe(
      0.92,
    );
  });

  it('takes a user’s RCE CSV over the imported prices for their own locations; a bad CSV is a 400 on csv', async () => {
    await ok(alice, 'PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-billing-rce', since: '2025-01-01', installationKw: 6.5 });
    // 11:00–12:00 local (09:00–10:00 UTC in June) at 200 instead of 95: (5.7 × 0.2 + 7.4 × 0.01 + 3.5 × 0.06) × 1.23 = 1.75.
    const csv = ['start_utc,rce_pln', ...[0, 15, 30, 45].map((m) => `2025-06-15 09:${String(m).padStart(2, '0')},200`)].join('\n');
    expect(await ok(alice, 'POST', '/prices/rce/csv', { csv })).toMatchObject({ imported: 4 });
    const mine = await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`);
    expect(mine.months[0]?.credited).toBe(1.75);
    // Bob's upload does not change Alice's ledger.
    await ok(bob, 'POST', '/prices/rce/csv', { csv: csv.replaceAll(',200', ',900') });
    expect((await ok<Ledger>(alice, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`)).months[0]?.credited).toBe(
      1.75,
    );
    const bad = await call(alice, 'POST', '/prices/rce/csv', { csv: 'start_utc,rce_pln\n2025-06-15 09:00,abc' });
    expect(bad.statusCode).toBe(400);
    expect(fields(bad)).toEqual(['csv']);
    expect(bad.json().message).toMatch(/line 2/);
    const noHeader = await call(alice, 'POST', '/prices/rce/csv', { csv: 'time,price\n1,2' });
    expect([noHeader.statusCode, fields(noHeader)]).toEqual([400, ['csv']]);
    // Good lines are stored, bad ones listed with their line and reason; the range is the periods' start to end.
    const mixed = await ok(alice, 'POST', '/prices/rce/csv', {
      csv: 'dtime_utc;rce_pln\n2025-06-16 10:15;300\n2025-06-16 10:30;x\nsoon;1\n2025-06-16 10:30;301,5',
    });
    expect(mixed).toEqual({
      imported: 2,
      refused: 2,
      refusedLines: [
        { line: 3, reason: 'price' },
        { line: 4, reason: 'time' },
      ],
      from: Date.UTC(2025, 5, 16, 10, 0),
      to: Date.UTC(2025, 5, 16, 10, 30),
    });
  });

  it('says which quarter-hours of each business day have an RCE price, and from where', async () => {
    const from = startOfDate('2025-06-15', WAW);
    await t.ctx.storage.db
      .insertInto('rce_prices')
      .values(Array.from({ length: 96 }, (_, k) => ({ user_id: 0, ts: from + k * Q, price: 1, published_at: null })))
      .onConflict((oc) => oc.columns(['user_id', 'ts']).doNothing())
      .execute();
    const days = await ok<{
      timezone: string;
      days: { date: string; expected: number; priced: number; imported: number; uploaded: number }[];
    }>(alice, 'GET', '/prices/rce/days?from=2025-06-14&to=2025-06-17');
    expect(days.timezone).toBe(WAW);
    // 15 June: PSE's 96 quarters, 4 of them also Alice's own; 16 June: her 2 uploaded quarters alone.
    expect(days.days).toEqual([
      { date: '2025-06-14', expected: 96, priced: 0, imported: 0, uploaded: 0 },
      { date: '2025-06-15', expected: 96, priced: 96, imported: 96, uploaded: 4 },
      { date: '2025-06-16', expected: 96, priced: 2, imported: 0, uploaded: 2 },
    ]);
    // Bob sees the imported prices, not Alice's uploads (his own upload was on 15 June).
    const bobs = await ok<{ days: { uploaded: number }[] }>(bob, 'GET', '/prices/rce/days?from=2025-06-16&to=2025-06-17');
    expect(bobs.days[0]?.uploaded).toBe(0);
    // The autumn DST day has 100 quarters; a span the wrong way round or over a year is a 400.
    const dst = await ok<{ days: { expected: number }[] }>(alice, 'GET', '/prices/rce/days?from=2025-10-26&to=2025-10-27');
    expect(dst.days[0]?.expected).toBe(100);
    const wrong = await call(alice, 'GET', '/prices/rce/days?from=2025-06-17&to=2025-06-14');
    expect([wrong.statusCode, fields(wrong)]).toEqual([400, ['from']]);
    const long = await call(alice, 'GET', '/prices/rce/days?from=2024-01-01&to=2025-06-14');
    expect([long.statusCode, fields(long)]).toEqual([400, ['to']]);
    expect((await call(alice, 'GET', '/prices/rce/days?from=2025-6-1&to=2025-06-14')).statusCode).toBe(400);
  });

  it('answers bad ledger and price input with 400 and the field, another user’s location with 404', async () => {
    const bad = async (url: string, field: string, method: 'GET' | 'PUT' = 'GET', body?: unknown) => {
      const res = await call(alice, method, url, body);
      expect(res.statusCode, url).toBe(400);
      expect(fields(res)).toContain(field);
    };
    await bad(`/locations/${locationId}/prosumer/ledger?from=2025-07&to=2025-06`, 'from');
    await bad(`/locations/${locationId}/prosumer/ledger?from=2025-06&to=2099-01`, 'to');
    await bad(`/locations/${locationId}/prosumer/ledger?from=2025-6&to=2025-07`, 'from');
    await bad(`/locations/${locationId}/balance?from=2025-06-16&to=2025-06-15`, 'from');
    await bad(`/locations/${locationId}/balance?from=2025-06-15&to=2025-06-16&interval=5m`, 'interval');
    await bad('/prices/rcem/2025-06', 'price', 'PUT', { price: -1 });
    await bad('/prices/rcem/2025-06', 'price', 'PUT', { price: 'abc' });
    await bad('/prices/rcem/2099-01', 'month', 'PUT', { price: 100 });
    await bad('/prices/rcem/2025-13', 'month', 'PUT', { price: 100 });
    expect((await call(bob, 'GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`)).statusCode).toBe(404);
  });
});
