import { startOfDate, TARIFF_PRESETS, type TariffStats } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

type User = Awaited<ReturnType<typeof signUp>>;
const WAW = 'Europe/Warsaw';
const Q = 15 * 60_000;

describe.each(DIALECTS)('locations and tariffs API (%s)', (dialect) => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let macs = 0;
  beforeAll(async () => {
    // Readings of January 2026 stay within the raw retention whenever the suite runs.
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    alice = await signUp(t.app);
    bob = await signUp(t.app);
  });
  afterAll(async () => t.close());

  const call = (u: User, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: u.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async <T = Record<string, unknown>>(
    u: User,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<T> => {
    const res = await call(u, method, url, payload);
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };
  const fields = (res: { json(): unknown }) =>
    (res.json() as { errors: { field?: string; key?: string }[] }).errors.map((e) => `${e.field}:${e.key ?? ''}`);
  const price = (validFrom: string, area1: number, area2: number, fixedMonthly: number) => ({
    validFrom,
    area1,
    area2,
    area3: null,
    fixedMonthly,
  });
  const g12 = { name: 'G12 at home', group: 'G12', presetId: 'tauron-g12', prices: [price('2026-01-01', 1, 0.5, 31)] };

  async function device(u: User, extra: Record<string, unknown> = {}) {
    const mac = `02:7A:00:00:${String(Math.floor(macs / 100)).padStart(2, '0')}:${String(macs++ % 100).padStart(2, '0')}`;
    return ok<{ device: { id: number; location: unknown; tariff: unknown }; ingestKey: string }>(u, 'POST', '/devices', {
      name: `meter ${macs}`,
      mac,
      typeCode: 20,
      ...extra,
    });
  }

  /** 0.25 kWh per quarter-hour (1 kWh an hour) on eai1, from local midnight of `from` to local midnight of `to`. */
  async function ingestFlat(key: string, from: string, to: string) {
    const start = startOfDate(from, WAW);
    const end = startOfDate(to, WAW);
    const readings: { ts: string; values: Record<string, number> }[] = [];
    for (let ts = start, e = 100; ts <= end; ts += Q, e += 0.25) readings.push({ ts: new Date(ts).toISOString(), values: { eai1: e } });
    for (let i = 0; i < readings.length; i += 5000) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': key },
        payload: { readings: readings.slice(i, i + 5000) },
      });
      expect(res.statusCode).toBe(200);
    }
  }

  it('creates, lists, edits and deletes a location; its timezone follows the user’s country', async () => {
    const created = await ok(alice, 'POST', '/locations', { name: 'Home', code: 'H1', address: 'ul. Długa 1', city: 'Gdańsk' });
    expect(created).toMatchObject({
      name: 'Home',
      code: 'H1',
      address: 'ul. Długa 1',
      city: 'Gdańsk',
      timezone: WAW,
      tariff: null,
      tariffs: [],
      devices: [],
    });
    const turk = await signUp(t.app, `tr${Math.random().toString(36).slice(2)}@example.com`);
    await t.app.inject({
      method: 'POST',
      url: '/api/account/update',
      headers: turk.auth,
      payload: { fullName: 'T', country: 'TR', timezone: 'Europe/Istanbul', language: 'tr' },
    });
    expect((await ok(turk, 'POST', '/locations', { name: 'Ev' })).timezone).toBe('Europe/Istanbul');
    const id = created.id as number;
    const edited = await ok(alice, 'PUT', `/locations/${id}`, { name: 'Home 2', city: 'Sopot', timezone: 'europe/warsaw' });
    expect(edited).toMatchObject({ name: 'Home 2', city: 'Sopot', code: '', timezone: WAW });
    expect((await ok<unknown[]>(alice, 'GET', '/locations')).map((l) => (l as { id: number }).id)).toContain(id);
    expect((await call(bob, 'GET', `/locations/${id}`)).statusCode).toBe(404);
    expect((await call(bob, 'PUT', `/locations/${id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', `/locations/${id}`)).statusCode).toBe(404);
    expect(await ok<unknown[]>(bob, 'GET', '/locations')).toEqual([]);
    expect(await ok(alice, 'DELETE', `/locations/${id}`)).toEqual({ ok: true });
    expect((await call(alice, 'GET', `/locations/${id}`)).statusCode).toBe(404);
  });

  it('refuses bad locations with field errors', async () => {
    expect(fields(await call(alice, 'POST', '/locations', { name: '', timezone: 'Mars/Olympus' }))).toEqual([
      'name:validation.required',
      'timezone:validation.timezone',
    ]);
    const a = await ok(alice, 'POST', '/locations', { name: 'A' });
    const b = await ok(alice, 'POST', '/locations', { name: 'B' });
    const tb = await ok(alice, 'POST', `/locations/${b.id}/tariffs`, g12);
    expect(fields(await call(alice, 'PUT', `/locations/${a.id}`, { name: 'A', tariffId: tb.id }))).toEqual([
      'tariffId:tariffs.errors.tariffOfLocation',
    ]);
    const bobs = await ok(bob, 'POST', '/locations', { name: 'Bob' });
    const bobTariff = await ok(bob, 'POST', `/locations/${bobs.id}/tariffs`, g12);
    expect(fields(await call(alice, 'PUT', `/locations/${a.id}`, { name: 'A', tariffId: bobTariff.id }))).toEqual([
      'tariffId:tariffs.errors.notFound',
    ]);
  });

  it('keeps tariffs with presets, validity dates and field errors for bad ones', async () => {
    const presets = await ok<{ id: string; group: string; unconfirmed: boolean }[]>(alice, 'GET', '/tariffs/presets');
    expect(presets.map((p) => p.id)).toEqual(TARIFF_PRESETS.map((p) => p.id));
    for (const id of ['tauron-g12', 'tauron-g12w', 'pge-g12', 'pge-g12n', 'energa-g12r'])
      expect(presets.find((p) => p.id === id)).toBeDefined();
    expect(presets.find((p) => p.id === 'enea-g12')?.unconfirmed).toBe(true);

    const loc = await ok(alice, 'POST', '/locations', { name: 'Flat' });
    const base = `/locations/${loc.id}/tariffs`;
    const created = await ok(alice, 'POST', base, {
      ...g12,
      presetId: 'pge-g12',
      prices: [price('2026-03-01', 1.2, 0.6, 40), price('2026-01-01', 1, 0.5, 31)],
    });
    expect(created).toMatchObject({
      group: 'G12',
      presetId: 'pge-g12',
      clock: 'cet',
      currency: 'PLN',
      holidayCalendar: 'PL',
      isLocationTariff: true,
      deviceCount: 0,
    });
    expect((created.prices as { validFrom: string }[]).map((p) => p.validFrom)).toEqual(['2026-01-01', '2026-03-01']);
    expect((created.schedule as { seasons: unknown[] }).seasons).toHaveLength(2);
    // The first tariff became the location's energy tariff; a second one does not.
    const second = await ok(alice, 'POST', base, {
      name: 'Weekend',
      group: 'G12w',
      presetId: 'energa-g12w',
      clock: 'local',
      currency: 'EUR',
      prices: [price('2026-01-01', 0.3, 0.2, 5)],
    });
    expect(second).toMatchObject({ clock: 'local', currency: 'EUR', isLocationTariff: false });
    expect((await ok(alice, 'GET', `/locations/${loc.id}`)).tariff).toEqual({ id: created.id, name: 'G12 at home', group: 'G12' });
    expect((await ok<unknown[]>(alice, 'GET', base)).length).toBe(2);
    const updated = await ok(alice, 'PUT', `${base}/${second.id}`, { ...g12, name: 'Renamed', prices: [price('2026-05-01', 2, 1, 10)] });
    expect(updated).toMatchObject({
      name: 'Renamed',
      group: 'G12',
      prices: [{ validFrom: '2026-05-01', area1: 2, area2: 1, area3: null, fixedMonthly: 10 }],
    });

    const bad = async (body: unknown) => fields(await call(alice, 'POST', base, body));
    expect(await bad({ ...g12, prices: [price('2026-01-01', -1, 0.5, 10)] })).toEqual(['prices.0.area1:validation.min']);
    expect(await bad({ ...g12, prices: [{ ...price('2026-01-01', 1, 0.5, 10), area2: 'cheap' }] })).toEqual([
      'prices.0.area2:validation.number',
    ]);
    expect(await bad({ ...g12, prices: [price('2026-01-01', 1, 0.5, 10), price('2026-01-01', 2, 1, 10)] })).toEqual([
      'prices.1.validFrom:tariffs.errors.duplicateValidFrom',
    ]);
    expect((await bad({ ...g12, group: 'G99' }))[0]).toMatch(/^group:/);
    expect(await bad({ ...g12, presetId: 'tauron-g99' })).toEqual(['presetId:tariffs.errors.unknownPreset']);
    expect(await bad({ ...g12, presetId: 'pge-g12n' })).toEqual(['presetId:tariffs.errors.presetGroup']);
    expect(await bad({ ...g12, presetId: null })).toEqual(['schedule:tariffs.errors.scheduleRequired']);
    const hours = Array.from({ length: 23 }, () => 1);
    const day = Array.from({ length: 24 }, () => 1);
    expect(
      await bad({
        ...g12,
        schedule: {
          seasons: [{ name: 'x', from: '01-01', to: '12-31', days: { weekday: hours, saturday: day, sunday: day, holiday: day } }],
        },
      }),
    ).toEqual(['schedule.seasons.0.days.weekday:tariffs.errors.hours24']);
    expect(
      await bad({
        ...g12,
        schedule: {
          seasons: [{ name: 'x', from: '01-02', to: '12-31', days: { weekday: day, saturday: day, sunday: day, holiday: day } }],
        },
      }),
    ).toEqual(['schedule.seasons:tariffs.errors.seasonsCover']);
    // Another user's location and tariff: 404, never data.
    expect((await call(bob, 'GET', base)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `${base}/${created.id}`)).statusCode).toBe(404);
    expect((await call(bob, 'PUT', `${base}/${created.id}`, g12)).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', `${base}/${created.id}`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/tariffs/${created.id}/stats?from=2026-01-01&to=2026-02-01`)).statusCode).toBe(404);
    // A tariff named under a location it does not belong to: 404.
    const other = await ok(alice, 'POST', '/locations', { name: 'Other' });
    expect((await call(alice, 'GET', `/locations/${other.id}/tariffs/${created.id}`)).statusCode).toBe(404);
  });

  it('places devices at a location with its tariff; the list carries both; deleting keeps the devices working', async () => {
    const loc = await ok(alice, 'POST', '/locations', { name: 'Summer house' });
    const tariff = await ok(alice, 'POST', `/locations/${loc.id}/tariffs`, g12);
    const other = await ok(alice, 'POST', `/locations/${loc.id}/tariffs`, { ...g12, name: 'Other G12' });
    // Placed at creation: the location's energy tariff comes with it.
    const { device: created } = await device(alice, { locationId: loc.id });
    expect(created).toMatchObject({ location: { id: loc.id, name: 'Summer house' }, tariff: { id: tariff.id, name: 'G12 at home' } });
    const { device: d, ingestKey } = await device(alice);
    expect(d).toMatchObject({ location: null, tariff: null });
    const placed = await ok(alice, 'PUT', `/devices/${d.id}`, { locationId: loc.id, tariffId: other.id });
    expect(placed).toMatchObject({ location: { id: loc.id, name: 'Summer house' }, tariff: { id: other.id, name: 'Other G12' } });
    const list = await ok<{ id: number; location: unknown; tariff: unknown }[]>(alice, 'GET', '/devices');
    expect(list.find((x) => x.id === d.id)).toMatchObject({
      location: { id: loc.id, name: 'Summer house' },
      tariff: { id: other.id, name: 'Other G12' },
    });
    // A name change leaves the placement alone.
    expect(await ok(alice, 'PUT', `/devices/${d.id}`, { name: 'Renamed' })).toMatchObject({ tariff: { id: other.id } });
    // Bad placements.
    const elsewhere = await ok(alice, 'POST', '/locations', { name: 'Elsewhere' });
    expect(fields(await call(alice, 'PUT', `/devices/${d.id}`, { locationId: elsewhere.id, tariffId: tariff.id }))).toEqual([
      'tariffId:tariffs.errors.tariffOfLocation',
    ]);
    expect(fields(await call(alice, 'PUT', `/devices/${d.id}`, { locationId: null, tariffId: tariff.id }))).toEqual([
      'tariffId:tariffs.errors.locationFirst',
    ]);
    const bobs = await ok(bob, 'POST', '/locations', { name: 'Bob' });
    const bobTariff = await ok(bob, 'POST', `/locations/${bobs.id}/tariffs`, g12);
    // Another user's location or tariff in a body: a bad field, answered as for one that does not exist.
    expect(fields(await call(alice, 'PUT', `/devices/${d.id}`, { locationId: bobs.id }))).toEqual(['locationId:locations.errors.notFound']);
    expect(fields(await call(alice, 'PUT', `/devices/${d.id}`, { tariffId: bobTariff.id }))).toEqual(['tariffId:tariffs.errors.notFound']);
    expect(fields(await call(alice, 'PUT', `/devices/${d.id}`, { locationId: 2_000_000_000 }))).toEqual([
      'locationId:locations.errors.notFound',
    ]);
    expect(await ok(bob, 'GET', `/locations/${bobs.id}`)).toMatchObject({ devices: [] });
    expect(fields(await call(alice, 'PUT', `/devices/${d.id}`, { locationId: 'one' }))).toEqual(['locationId:validation.id']);
    // Deleting the tariff a device uses: the device keeps working without one.
    await ok(alice, 'DELETE', `/locations/${loc.id}/tariffs/${other.id}`);
    expect(await ok(alice, 'GET', `/devices/${d.id}`)).toMatchObject({ location: { id: loc.id }, tariff: null });
    // Deleting the location whose devices use its tariff: they stay, without location or tariff, and still ingest.
    expect((await ok(alice, 'GET', `/devices/${created.id}`)).tariff).toEqual({ id: tariff.id, name: 'G12 at home' });
    await ok(alice, 'DELETE', `/locations/${loc.id}`);
    for (const id of [d.id, created.id]) expect(await ok(alice, 'GET', `/devices/${id}`)).toMatchObject({ location: null, tariff: null });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': ingestKey },
      payload: { readings: [{ ts: new Date(Date.now() - 1000).toISOString(), values: { eai1: 5 } }] },
    });
    expect(res.statusCode).toBe(200);
    expect((await call(alice, 'GET', `/devices/${d.id}/energy`)).statusCode).toBe(200);
  });

  it('answers energy and cost per zone and per local day, a mid-period price change against hand-computed figures', async () => {
    const loc = await ok(alice, 'POST', '/locations', { name: 'Stats' });
    const tariff = await ok(alice, 'POST', `/locations/${loc.id}/tariffs`, {
      ...g12,
      prices: [price('2026-01-01', 1, 0.5, 31), price('2026-02-01', 2, 1, 28)],
    });
    const { device: d, ingestKey } = await device(alice, { locationId: loc.id });
    await ingestFlat(ingestKey, '2026-01-30', '2026-02-03');
    const url = `/tariffs/${tariff.id}/stats?from=2026-01-30&to=2026-02-03`;
    const stats = await ok<TariffStats>(alice, 'GET', url);
    // A day: 14 kWh in area 1, 10 in area 2. January 14 × 1 + 10 × 0.5 + 31/31 = 20; February 14 × 2 + 10 × 1 + 28/28 = 39.
    expect(stats).toMatchObject({
      currency: 'PLN',
      timezone: WAW,
      deviceIds: [d.id],
      kWh: 96,
      energyCost: 114,
      fixedCost: 4,
      totalCost: 118,
      unpricedKWh: 0,
    });
    expect(stats.zones).toEqual([
      { area: 1, kWh: 56, cost: 84 },
      { area: 2, kWh: 40, cost: 30 },
    ]);
    expect(stats.days.map((x) => [x.date, x.cost, x.hours])).toEqual([
      ['2026-01-30', 20, 24],
      ['2026-01-31', 20, 24],
      ['2026-02-01', 39, 24],
      ['2026-02-02', 39, 24],
    ]);
    // The same figures once the hours are rolled up (read from the rollups below the watermark).
    await t.ctx.telemetry.compactNow();
    expect(await ok<TariffStats>(alice, 'GET', url)).toEqual(stats);
    expect(await ok<TariffStats>(alice, 'GET', `${url}&deviceId=${d.id}`)).toMatchObject({ deviceId: d.id, totalCost: 118 });
    // A later price never changes an earlier period: January before and after adding and editing a March price.
    const january = `/tariffs/${tariff.id}/stats?from=2026-01-30&to=2026-02-01`;
    const before = await ok<TariffStats>(alice, 'GET', january);
    expect(before.totalCost).toBe(40);
    const body = (extra: object[]) => ({ ...g12, prices: [price('2026-01-01', 1, 0.5, 31), price('2026-02-01', 2, 1, 28), ...extra] });
    await ok(alice, 'PUT', `/locations/${loc.id}/tariffs/${tariff.id}`, body([price('2026-03-01', 5, 4, 100)]));
    expect(await ok<TariffStats>(alice, 'GET', january)).toEqual(before);
    await ok(alice, 'PUT', `/locations/${loc.id}/tariffs/${tariff.id}`, body([price('2026-03-01', 7, 6, 300)]));
    expect(await ok<TariffStats>(alice, 'GET', january)).toEqual(before);
    expect((await ok<TariffStats>(alice, 'GET', url)).totalCost).toBe(118);
    // The service other modules use gives the same for the device and for the location.
    const service = t.ctx.places.tariffs;
    expect((await service.costPerZone(alice.userId, { deviceId: d.id }, { from: '2026-01-30', to: '2026-02-03' }))?.totalCost).toBe(118);
    expect(
      (await service.costPerZone(alice.userId, { locationId: loc.id as number }, { from: '2026-01-30', to: '2026-02-03' }))?.zones,
    ).toEqual(stats.zones);
    await expect(service.costPerZone(bob.userId, { deviceId: d.id }, { from: '2026-01-30', to: '2026-02-03' })).rejects.toMatchObject({
      statusCode: 404,
    });
    // The PDF report's section (exports' ReportExtras): the location's name, energy cost per zone of whole local days.
    const row = await t.ctx.storage.db.selectFrom('devices').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    const extras = t.ctx.places.reportExtras;
    expect(await extras.locationName(alice.userId, row)).toBe('Stats');
    expect(await extras.tariffCosts(alice.userId, row, startOfDate('2026-01-30', WAW), startOfDate('2026-02-02', WAW) + 3_600_000)).toEqual(
      {
        currency: 'PLN',
        zones: [
          { name: '1 · Dzienna', energyKwh: 56, cost: 84 },
          { name: '2 · Nocna', energyKwh: 40, cost: 30 },
        ],
        totalKwh: 96,
        totalCost: 114,
      },
    );
  });

  it('refuses bad periods and devices in statistics and the advisor', async () => {
    const loc = await ok(alice, 'POST', '/locations', { name: 'Periods' });
    const tariff = await ok(alice, 'POST', `/locations/${loc.id}/tariffs`, g12);
    const stats = (q: string) => call(alice, 'GET', `/tariffs/${tariff.id}/stats?${q}`);
    expect(fields(await stats('from=2026-02-01&to=2026-01-01'))).toEqual(['to:validation.dateOrder']);
    expect(fields(await stats('from=2026-01-01&to=2026-01-01'))).toEqual(['to:validation.dateOrder']);
    expect(fields(await stats('from=2025-01-01&to=2026-01-03'))).toEqual(['to:validation.rangeTooLong']);
    expect(fields(await stats('from=2026-13-01&to=2027-01-01'))).toEqual(['from:validation.date']);
    expect(fields(await stats('from=2026-01-01'))).toEqual(['to:validation.required']);
    const { device: bobs } = await device(bob);
    expect((await stats(`from=2026-01-01&to=2026-02-01&deviceId=${bobs.id}`)).statusCode).toBe(404);
    const advisor = (q: string) => call(alice, 'GET', `/tariffs/advisor?${q}`);
    expect(fields(await advisor(`deviceId=1&locationId=${loc.id}`))).toEqual(['deviceId:tariffs.errors.target']);
    expect(fields(await advisor(''))).toEqual(['deviceId:tariffs.errors.target']);
    expect(fields(await advisor(`locationId=${loc.id}&from=2026-03-01&to=2026-02-01`))).toEqual(['to:validation.dateOrder']);
    expect((await advisor(`deviceId=${bobs.id}`)).statusCode).toBe(404);
    const bobsLoc = await ok(bob, 'POST', '/locations', { name: 'B' });
    expect((await advisor(`locationId=${bobsLoc.id}`)).statusCode).toBe(404);
    // No readings: no options, said so.
    expect(await ok(alice, 'GET', `/tariffs/advisor?locationId=${loc.id}`)).toMatchObject({ daysWithData: 0, options: [], country: 'PL' });
  });

  it('advises the cheapest group with the user’s prices where it has them, reference prices elsewhere', async () => {
    const loc = await ok(alice, 'POST', '/locations', { name: 'Advice' });
    const mine = await ok(alice, 'POST', `/locations/${loc.id}/tariffs`, { ...g12, prices: [price('2026-01-01', 1.3, 0.6, 30)] });
    const { ingestKey } = await device(alice, { locationId: loc.id });
    await ingestFlat(ingestKey, '2026-01-05', '2026-01-12');
    const a = await ok<{
      daysWithData: number;
      kWh: number;
      current: { tariffId: number; totalCost: number; annualCost: number } | null;
      options: {
        presetId: string;
        group: string;
        priceSource: string;
        priceTariffId: number | null;
        totalCost: number;
        annualCost: number;
        savingPerYear: number | null;
        shiftKWhPerYear: number | null;
      }[];
    }>(alice, 'GET', `/tariffs/advisor?locationId=${loc.id}&from=2026-01-01&to=2026-02-01`);
    expect([a.daysWithData, a.kWh]).toEqual([7, 168]);
    expect(a.current?.tariffId).toBe(mine.id);
    const totals = a.options.map((o) => o.totalCost);
    expect(totals).toEqual([...totals].sort((x, y) => x - y));
    expect(new Set(a.options.map((o) => o.presetId))).toEqual(new Set(TARIFF_PRESETS.filter((p) => p.country === 'PL').map((p) => p.id)));
    for (const o of a.options) {
      expect(o.priceSource).toBe(o.group === 'G12' ? 'tariff' : 'reference');
      if (o.group === 'G12') expect(o.priceTariffId).toBe(mine.id);
      expect(o.savingPerYear).toBeCloseTo((a.current?.annualCost ?? 0) - o.annualCost, 2);
    }
    // The user's own tariff priced with its own schedule equals the TAURON G12 option (same hours, same prices, same clock).
    expect(a.options.find((o) => o.presetId === 'tauron-g12')?.totalCost).toBe(a.current?.totalCost);
    expect(a.options[0]?.shiftKWhPerYear).toBe(0);
    // One rule with the balance: days before the current tariff's first price list are not costed. A tariff
    // whose first list starts on 8 January: the advisor's period starts there, and its "your tariff" equals
    // the balance of the same days.
    const later = await ok(alice, 'POST', '/locations', { name: 'Later prices' });
    const lateTariff = await ok(alice, 'POST', `/locations/${later.id}/tariffs`, { ...g12, prices: [price('2026-01-08', 1.3, 0.6, 30)] });
    await ok(alice, 'PUT', `/locations/${later.id}`, { name: 'Later prices', tariffId: lateTariff.id });
    const lateDevice = await device(alice, { locationId: later.id });
    await ingestFlat(lateDevice.ingestKey, '2026-01-05', '2026-01-12');
    const adv = await ok<{ from: string; daysWithData: number; costedFrom: string | null; current: { totalCost: number } | null }>(
      alice,
      'GET',
      `/tariffs/advisor?locationId=${later.id}&from=2026-01-01&to=2026-02-01`,
    );
    expect(adv.costedFrom).toBe('2026-01-08');
    expect([adv.from, adv.daysWithData]).toEqual(['2026-01-08', 4]);
    const balance = await ok<{ totalCost: number; unpricedKWh: number }>(
      alice,
      'GET',
      `/tariffs/${lateTariff.id}/stats?from=2026-01-01&to=2026-02-01`,
    );
    expect(balance.unpricedKWh).toBe(72);
    // The balance counts the fee for every day of the period from the list on; the advisor for the days with data.
    const feeDays = (d: number) => Math.round(((30 * d) / 31) * 100) / 100;
    expect(adv.current?.totalCost).toBeCloseTo(balance.totalCost - feeDays(31 - 7) + feeDays(4), 1);
    // A device answers too, under the device's tariff.
    const holidays = await ok<{ holidays: { date: string }[] }>(alice, 'GET', '/tariffs/holidays?calendar=PL&year=2026');
    expect(holidays.holidays.map((h) => h.date)).toEqual(expect.arrayContaining(['2026-06-04', '2026-12-24']));
  });
});
