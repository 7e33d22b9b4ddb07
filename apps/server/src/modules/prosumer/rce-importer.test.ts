import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Ledger, startOfDate } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.js';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import { ProsumerRepository } from './prosumer.repository.js';
import { DEFAULT_RCE_SOURCE_URL } from './rce-import.js';
import { RceImporter, type RceImporterOptions } from './rce-importer.js';

const WAW = 'Europe/Warsaw';
const Q = 15 * 60_000;
const MIN = 60_000;
type User = Awaited<ReturnType<typeof signUp>>;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const utcText = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/**
 * A fake of PSE's RCE API on 127.0.0.1: a business day's quarter prices (250 PLN/MWh) in two pages joined by
 * `nextLink`. `failing` days answer 503 as many times as their count says; `requests` lists what was asked.
 */
class FakePse {
  readonly requests: { day: string; page: number }[] = [];
  readonly failing = new Map<string, number>();
  /** Days PSE has not published yet (an empty `value`). */
  readonly unpublished = new Set<string>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const day = url.pathname.endsWith('/page2')
        ? (url.searchParams.get('day') ?? '')
        : (/business_date eq '(\d{4}-\d{2}-\d{2})'/.exec(url.searchParams.get('$filter') ?? '')?.[1] ?? '');
      const page = url.pathname.endsWith('/page2') ? 2 : 1;
      this.requests.push({ day, page });
      const fails = this.failing.get(day) ?? 0;
      if (fails > 0) {
        this.failing.set(day, fails - 1);
        res.writeHead(503).end();
        return;
      }
      const from = startOfDate(day, WAW);
      const to = startOfDate(nextDay(day), WAW);
      const all: { dtime_utc: string; rce_pln: number; publication_ts_utc: string }[] = [];
      if (!this.unpublished.has(day))
        for (let ts = from; ts < to; ts += Q)
          all.push({ dtime_utc: utcText(ts + Q), rce_pln: 250, publication_ts_utc: utcText(from - 10 * 3_600_000) });
      const half = Math.ceil(all.length / 2);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          page === 1
            ? { value: all.slice(0, half), ...(all.length > half ? { nextLink: `${this.url}/page2?day=${day}` } : {}) }
            : { value: all.slice(half) },
        ),
      );
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/rce-pln`;
  }

  firstPages(): string[] {
    return this.requests.filter((r) => r.page === 1).map((r) => r.day);
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => this.server?.close(() => r()));
  }
}

describe('RCE import settings', () => {
  it('is on by default against PSE, off with RCE_IMPORT=off; RCE_SOURCE_URL must be an http(s) URL', () => {
    const base = { DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x' };
    expect([loadConfig(base).rceImport, loadConfig(base).rceSourceUrl]).toEqual([true, DEFAULT_RCE_SOURCE_URL]);
    expect(loadConfig({ ...base, RCE_IMPORT: 'off' }).rceImport).toBe(false);
    expect(loadConfig({ ...base, RCE_SOURCE_URL: 'http://127.0.0.1:8099/api/rce-pln' }).rceSourceUrl).toBe(
      'http://127.0.0.1:8099/api/rce-pln',
    );
    expect(() => loadConfig({ ...base, RCE_SOURCE_URL: 'ftp://example.com/rce' })).toThrow(/RCE_SOURCE_URL/);
    expect(() => loadConfig({ ...base, RCE_SOURCE_URL: 'not a url' })).toThrow(/RCE_SOURCE_URL/);
  });
});

describe.each(DIALECTS)('daily RCE import (%s)', (dialect) => {
  let t: TestApp;
  let alice: User;
  let repo: ProsumerRepository;
  let pse: FakePse;
  let locationId: number;
  const warnings: object[] = [];
  const log = { info: () => {}, warn: (o: object) => warnings.push(o) };
  let clock = Date.UTC(2025, 5, 16, 10, 0); // 12:00 in Warsaw: tomorrow's prices are not asked for yet
  const importer = (o: Partial<RceImporterOptions> = {}) =>
    new RceImporter(repo, { sourceUrl: pse.url, log, now: () => clock, retryMs: 5, pageAttempts: 1, ...o });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: alice.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async <T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await call(method, url, payload);
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };
  const importedOn = async (day: string) => repo.rceImportedCount(startOfDate(day, WAW), startOfDate(nextDay(day), WAW));

  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    // The app's own importer is off in tests (RCE_IMPORT=off): nothing reaches PSE.
    expect(t.config.rceImport).toBe(false);
    alice = await signUp(t.app);
    repo = new ProsumerRepository(t.ctx.storage.db);
    pse = new FakePse();
    await pse.start();
    locationId = (await ok<{ id: number }>('POST', '/locations', { name: 'Home' })).id;
  });
  afterAll(async () => {
    await pse.close();
    await t.close();
  });

  it('wants nothing while no location settles with hourly RCE, then the days since its scheme started', async () => {
    const a = importer();
    expect(await a.wantedDays()).toEqual([]);
    expect(await a.round()).toEqual({ wanted: [], imported: [], failed: [] });
    expect(pse.requests).toEqual([]);
    await ok('PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-billing-rce', since: '2025-06-14', installationKw: 6 });
    expect(await a.wantedDays()).toEqual(['2025-06-14', '2025-06-15', '2025-06-16']);
    // From 14:00 in Warsaw tomorrow's prices are asked for too; a scheme from long ago catches up 60 days at most.
    clock = Date.UTC(2025, 5, 16, 12, 30);
    expect((await a.wantedDays()).at(-1)).toBe('2025-06-17');
    await ok('PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-billing-rce', since: '2020-01-01', installationKw: 6 });
    const far = await a.wantedDays();
    expect([far[0], far.length]).toEqual(['2025-04-17', 62]);
    clock = Date.UTC(2025, 5, 16, 10, 0);
    await ok('PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-billing-rce', since: '2025-06-14', installationKw: 6 });
  });

  it('imports the missing days (following nextLink) as prices for everyone, never fetches a stored day again', async () => {
    // 14 June is stored already (e.g. by an earlier run whose end was lost): claimed, found complete, not fetched.
    const from14 = startOfDate('2025-06-14', WAW);
    const rows = Array.from({ length: 96 }, (_, k) => ({ user_id: 0, ts: from14 + k * Q, price: 100, published_at: null }));
    await t.ctx.storage.db.insertInto('rce_prices').values(rows).execute();
    pse.requests.length = 0;
    const round = await importer().round();
    expect(round).toEqual({
      wanted: ['2025-06-14', '2025-06-15', '2025-06-16'],
      imported: ['2025-06-16', '2025-06-15', '2025-06-14'],
      failed: [],
    });
    expect(pse.requests).toEqual([
      { day: '2025-06-16', page: 1 },
      { day: '2025-06-16', page: 2 },
      { day: '2025-06-15', page: 1 },
      { day: '2025-06-15', page: 2 },
    ]);
    expect([await importedOn('2025-06-14'), await importedOn('2025-06-15'), await importedOn('2025-06-16')]).toEqual([96, 96, 96]);
    // Stored for everyone (user 0), with PSE's publication time; nothing under a user.
    const own = await t.ctx.storage.db.selectFrom('rce_prices').select('user_id').where('user_id', '<>', 0).execute();
    expect(own).toEqual([]);
    // Another round, by this instance or another, fetches nothing.
    pse.requests.length = 0;
    expect((await importer().round()).imported).toEqual([]);
    expect(pse.requests).toEqual([]);
  });

  it('prices the RCE ledger with the imported prices', async () => {
    const grid = await ok<{ device: { id: number }; ingestKey: string }>('POST', '/devices', {
      name: 'meter',
      mac: `02:7B:01:00:00:${dialect === 'sqlite' ? '01' : '02'}`,
      typeCode: 13,
      locationId,
    });
    // 1 kWh exported per hour 10:00–14:00 local on 15 June: 4 kWh × 250 PLN/MWh × 1.23 = 1.23 PLN.
    const start = startOfDate('2025-06-15', WAW);
    const readings = [];
    let exported = 100;
    for (let k = 0; k <= 96; k++) {
      readings.push({ ts: new Date(start + k * Q).toISOString(), values: { eai1: 100, eae1: exported } });
      const hour = Math.floor(k / 4);
      if (hour >= 10 && hour < 14) exported += 0.25;
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': grid.ingestKey },
      payload: { readings },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ledger = await ok<Ledger>('GET', `/locations/${locationId}/prosumer/ledger?from=2025-06&to=2025-06`);
    expect(ledger.months[0]).toMatchObject({ nettedExportKWh: 4, credited: 1.23, missingPrice: false, priceSource: 'rce' });
  });

  it('retries a failing day after a backoff, logging each failed attempt once; a failing source throws nothing', async () => {
    await ok('PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-billing-rce', since: '2025-06-14', installationKw: 6 });
    clock = Date.UTC(2025, 5, 17, 10, 0);
    pse.requests.length = 0;
    warnings.length = 0;
    pse.failing.set('2025-06-17', 1);
    const a = importer({ backoffMs: 5 * MIN });
    expect(await a.round()).toMatchObject({ imported: [], failed: ['2025-06-17'] });
    expect(warnings).toEqual([expect.objectContaining({ day: '2025-06-17', attempt: 1, error: 'HTTP 503' })]);
    const row = await t.ctx.storage.db.selectFrom('rce_import_days').selectAll().where('day', '=', '2025-06-17').executeTakeFirstOrThrow();
    expect([Number(row.next_at), row.done_at, row.claimed_by, row.error]).toEqual([clock + 5 * MIN, null, null, 'HTTP 503']);
    // Before the backoff ends nobody tries again; after it, the day is imported.
    clock += 4 * MIN;
    expect(await a.round()).toMatchObject({ imported: [], failed: [] });
    expect(pse.firstPages()).toEqual(['2025-06-17']);
    clock += 2 * MIN;
    expect(await a.round()).toMatchObject({ imported: ['2025-06-17'], failed: [] });
    expect(await importedOn('2025-06-17')).toBe(96);
    expect(warnings).toHaveLength(1);

    // A day not published yet is not stored as done: tried again later, with a longer wait each time.
    clock = Date.UTC(2025, 5, 17, 12, 30);
    pse.unpublished.add('2025-06-18');
    expect(await a.round()).toMatchObject({ failed: ['2025-06-18'] });
    clock += 5 * MIN;
    expect(await a.round()).toMatchObject({ failed: ['2025-06-18'] });
    const again = await t.ctx.storage.db
      .selectFrom('rce_import_days')
      .selectAll()
      .where('day', '=', '2025-06-18')
      .executeTakeFirstOrThrow();
    expect([again.attempts, Number(again.next_at) - clock]).toEqual([2, 10 * MIN]);
    // A source that is not there at all: the round resolves, the day waits for its next attempt.
    const down = importer({ sourceUrl: 'http://127.0.0.1:9/api/rce-pln' });
    clock += 10 * MIN;
    expect(await down.round()).toMatchObject({ failed: ['2025-06-18'] });
    pse.unpublished.delete('2025-06-18');
  });

  it('lets one of two instances import a given day', async () => {
    clock = Date.UTC(2025, 5, 20, 10, 0);
    pse.requests.length = 0;
    const [a, b] = [importer(), importer()];
    const [ra, rb] = await Promise.all([a.round(), b.round()]);
    const days = ['2025-06-18', '2025-06-19', '2025-06-20'];
    expect([...ra.imported, ...rb.imported].sort()).toEqual(days);
    expect(pse.firstPages().sort()).toEqual(days);
    for (const d of days) expect(await importedOn(d)).toBe(96);
  });

  it('runs a round as soon as it starts; stopped, it fetches no more', async () => {
    clock = Date.UTC(2025, 5, 21, 10, 0);
    pse.requests.length = 0;
    const a = importer({ everyMs: 3_600_000 });
    a.start();
    await vi.waitFor(async () => expect(await importedOn('2025-06-21')).toBe(96), { timeout: 10_000 });
    await a.stop();
    expect(pse.firstPages()).toEqual(['2025-06-21']);
    clock = Date.UTC(2025, 5, 22, 10, 0);
    a.start();
    expect(await a.round()).toEqual({ wanted: expect.any(Array), imported: [], failed: [] });
    expect(pse.firstPages()).toEqual(['2025-06-21']);
  });
});
