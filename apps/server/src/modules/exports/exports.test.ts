import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HubConnectionBuilder } from '@microsoft/signalr';
import { type ExportJob, type ExportReadyEvent, HUB_EVENTS, HUB_PATH, zonedTimeToUtc } from '@phasewatch/shared';
import { parse as parseCsv } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { type AppConfig, loadConfig } from '../../config.js';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { createTestDatabase, DIALECTS } from '../../test/storage.js';

const MIN = 60_000;
const H = 3_600_000;
const TZ = 'Europe/Warsaw';
type User = Awaited<ReturnType<typeof signUp>>;
type Reading = { ts: number; values: Record<string, number> };

let macs = 0;
async function device(app: FastifyInstance, user: User, name = 'Meter', typeCode = 13) {
  const mac = `40:00:00:00:${String(Math.floor(macs / 100)).padStart(2, '0')}:${String(macs++ % 100).padStart(2, '0')}`;
  const res = await app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name, mac, typeCode } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { device: { id: number }; ingestKey: string };
}

async function post(app: FastifyInstance, key: string, readings: Reading[]) {
  for (let i = 0; i < readings.length; i += 5000) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': key },
      payload: { readings: readings.slice(i, i + 5000).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function startExport(app: FastifyInstance, user: User, body: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: '/api/exports', headers: user.auth, payload: body });
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as ExportJob;
}

async function waitDone(app: FastifyInstance, user: User, id: string): Promise<ExportJob> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/exports/${id}`, headers: user.auth });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json() as ExportJob;
    if (job.status === 'done' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`export ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function download(app: FastifyInstance, user: User, id: string) {
  const res = await app.inject({ method: 'POST', url: `/api/exports/${id}/download`, headers: user.auth });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res;
}

describe.each(DIALECTS)('exports (%s)', (dialect) => {
  let t: TestApp;
  let user: User;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
  });
  afterAll(async () => t?.close());

  it('CSV of raw readings across the autumn change: local times with their offsets, every value back as sent', async () => {
    const d = await device(t.app, user);
    // Every 20 minutes from 00:00 CEST on 2026-10-25 for five hours and a third; at 01:00 UTC 03:00 CEST
    // becomes 02:00 CET.
    const start = Date.parse('2026-10-24T22:00:00Z');
    const readings: Reading[] = Array.from({ length: 16 }, (_, i) => ({
      ts: start + i * 20 * MIN,
      values: { vave1: 229.5 + i / 10, pave1: 100 * i - 250.25, eai1: 1000 + i * 0.125 },
    }));
    await post(t.app, d.ingestKey, readings);
    const job = await startExport(t.app, user, {
      deviceId: d.device.id,
      parameters: ['pave1', 'eai1', 'vave1'],
      from: new Date(start).toISOString(),
      to: new Date(start + 16 * 20 * MIN).toISOString(),
      interval: 'raw',
      format: 'csv',
      fileName: 'piwnica łódź',
    });
    expect(job.status).toBe('queued');
    expect(job.id).toMatch(/^[0-9a-f-]{36}$/);
    const done = await waitDone(t.app, user, job.id);
    expect(done).toMatchObject({
      status: 'done',
      progress: 1,
      fileName: 'piwnica łódź',
      format: 'csv',
      parameters: ['pave1', 'vave1', 'eai1'],
    });
    const res = await download(t.app, user, job.id);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="piwnica __d_.csv"; filename*=UTF-8''piwnica%20%C5%82%C3%B3d%C5%BA.csv`,
    );
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(done.size).toBe(res.rawPayload.length);

    const rows = parseCsv(res.body, { relax_column_count: false }) as string[][];
    expect(rows[0]).toEqual(['time', 'pave1 [W]', 'vave1 [V]', 'eai1 [kWh]']);
    expect(rows).toHaveLength(17);
    const times = rows.slice(1).map((r) => r[0]);
    // 02:00–02:59 local comes twice, told apart by the offset.
    expect(times.slice(0, 4)).toEqual([
      '2026-10-25T00:00:00+02:00',
      '2026-10-25T00:20:00+02:00',
      '2026-10-25T00:40:00+02:00',
      '2026-10-25T01:00:00+02:00',
    ]);
    expect(times.slice(6, 12)).toEqual([
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:20:00+02:00',
      '2026-10-25T02:40:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T02:20:00+01:00',
      '2026-10-25T02:40:00+01:00',
    ]);
    rows.slice(1).forEach((r, i) => {
      const sent = readings[i] as Reading;
      expect(Date.parse(r[0] as string)).toBe(sent.ts);
      expect(Number(r[1])).toBe(sent.values.pave1);
      expect(Number(r[2])).toBe(sent.values.vave1);
      expect(Number(r[3])).toBe(sent.values.eai1);
    });
    expect(res.body.split('\r\n')[1]).toBe('2026-10-25T00:00:00+02:00,-250.25,229.5,1000');
  });

  it('CSV of energy per local day and hour: 23 and 25 hours on the days the clocks change', async () => {
    const d = await device(t.app, user);
    for (const [m, day, hours] of [
      [3, 29, 23],
      [10, 25, 25],
    ] as const) {
      const s = zonedTimeToUtc(TZ, 2026, m, day);
      // 0.25 kWh every 15 minutes from an hour before local midnight to an hour after the next.
      await post(
        t.app,
        d.ingestKey,
        Array.from({ length: (hours + 2) * 4 + 1 }, (_, i) => ({ ts: s - H + i * 15 * MIN, values: { eai1: 10 + i * 0.25, vave1: 230 } })),
      );
      const days = await waitDone(
        t.app,
        user,
        (
          await startExport(t.app, user, {
            deviceId: d.device.id,
            parameters: ['eai1'],
            from: new Date(s).toISOString(),
            to: new Date(s + hours * H).toISOString(),
            interval: '24h',
            format: 'csv',
            fileName: `day-${m}`,
          })
        ).id,
      );
      const dayRows = parseCsv((await download(t.app, user, days.id)).body) as string[][];
      expect(dayRows).toEqual([
        ['time', 'eai1 [kWh]'],
        [`2026-${String(m).padStart(2, '0')}-${day}T00:00:00${m === 3 ? '+01:00' : '+02:00'}`, String(hours)],
      ]);
      const hourly = await waitDone(
        t.app,
        user,
        (
          await startExport(t.app, user, {
            deviceId: d.device.id,
            allParameters: true,
            parameters: [],
            from: new Date(s).toISOString(),
            to: new Date(s + hours * H).toISOString(),
            interval: '1h',
            format: 'csv',
            fileName: `hours-${m}`,
          })
        ).id,
      );
      const hourRows = parseCsv((await download(t.app, user, hourly.id)).body) as string[][];
      expect(hourRows[0]).toEqual(['time', 'vave1 [V]', 'eai1 [kWh]']);
      expect(hourRows).toHaveLength(hours + 1);
      for (const r of hourRows.slice(1)) expect(r.slice(1)).toEqual(['230', '1']);
      // Each local hour once, but the repeated one of October twice with its two offsets.
      const local = hourRows.slice(1).map((r) => (r[0] as string).slice(11));
      if (m === 3) expect(local.slice(1, 3)).toEqual(['01:00:00+01:00', '03:00:00+02:00']);
      else expect(local.slice(2, 4)).toEqual(['02:00:00+02:00', '02:00:00+01:00']);
    }
  });

  it('PDF in Polish and Turkish: embedded fonts, the text extractable with its letters', async () => {
    const pl = await device(t.app, user, 'Łódź – piwnica żółć');
    const tr = await device(t.app, user, 'Şişli dükkânı ığ İ');
    const s = Date.parse('2026-11-02T00:00:00Z');
    for (const d of [pl, tr]) {
      await post(
        t.app,
        d.ingestKey,
        Array.from({ length: 96 }, (_, i) => ({
          ts: s + i * 15 * MIN,
          values: { eai1: 5 + i * 0.1, pave1: 400 + (i % 8) * 10, vave1: 231 },
        })),
      );
    }
    const texts: string[] = [];
    for (const [d, language] of [
      [pl, 'pl'],
      [tr, 'tr'],
    ] as const) {
      const job = await startExport(t.app, user, {
        deviceId: d.device.id,
        parameters: ['pave1', 'vave1', 'eai1'],
        from: new Date(s).toISOString(),
        to: new Date(s + 24 * H).toISOString(),
        interval: '1h',
        format: 'pdf',
        fileName: `raport-${language}`,
        language,
      });
      expect((await waitDone(t.app, user, job.id)).status).toBe('done');
      const res = await download(t.app, user, job.id);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain(`filename="raport-${language}.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-pdf-'));
      const file = path.join(dir, 'r.pdf');
      writeFileSync(file, res.rawPayload);
      expect(execFileSync('pdffonts', [file]).toString()).toMatch(/NotoSans-Regular\s+(CID )?TrueType.*yes\s+yes/);
      texts.push(execFileSync('pdftotext', ['-layout', file, '-']).toString());
    }
    const [plText, trText] = texts as [string, string];
    expect(plText).toContain('Raport zużycia energii');
    expect(plText).toContain('Łódź – piwnica żółć');
    expect(plText).toContain('Zużyta energia: 9,5 kWh');
    expect(plText).toMatch(/Średnia/);
    expect(plText).toContain('Napięcie L1 średnia (vave1)');
    expect(trText).toContain('Enerji raporu');
    expect(trText).toContain('Şişli dükkânı ığ İ');
    expect(trText).toContain('Tüketilen enerji: 9,5 kWh');
    expect(trText).toContain('En düşük');
    // The table: 24 hourly rows from 01:00 local, 0.4 kWh each (4 × 0.1; the last hour's last reading is at
    // 00:45, nothing is extrapolated past it), power between 400 and 470 W.
    expect(plText.match(/2026-11-0[23] \d\d:00 \+01:00 +4[15]5 +231 +0,[34]\n/g)?.length).toBe(24);
    expect(plText).toMatch(/Moc L1 średnia \(pave1\)\s+W\s+400\s+470\s+435/);
  });

  it('English PDF: a preset’s zone names in English, one decimal rule per column of the cost table', async () => {
    const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const res = await t.app.inject({ method, url, headers: user.auth, payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number };
    };
    const loc = await call('POST', '/api/locations', { name: 'Home G12', timezone: 'Europe/Warsaw' });
    const tariff = await call('POST', `/api/locations/${loc.id}/tariffs`, {
      name: 'G12 at home',
      group: 'G12',
      presetId: 'tauron-g12',
      prices: [{ validFrom: '2026-01-01', area1: 1.1, area2: 0.55, area3: null, fixedMonthly: 30 }],
    });
    await call('PUT', `/api/locations/${loc.id}`, { name: 'Home G12', timezone: 'Europe/Warsaw', tariffId: tariff.id });
    const d = await device(t.app, user, 'G12 meter');
    await call('PUT', `/api/devices/${d.device.id}`, { locationId: loc.id });
    const s = Date.parse('2026-11-02T00:00:00Z');
    await post(
      t.app,
      d.ingestKey,
      Array.from({ length: 97 }, (_, i) => ({ ts: s + i * 15 * MIN, values: { eai1: 5 + i * 0.0351, vave1: 231 } })),
    );
    const job = await startExport(t.app, user, {
      deviceId: d.device.id,
      parameters: ['eai1'],
      from: new Date(s).toISOString(),
      to: new Date(s + 24 * H).toISOString(),
      interval: '1h',
      format: 'pdf',
      fileName: 'report-en',
      language: 'en',
    });
    expect((await waitDone(t.app, user, job.id)).status).toBe('done');
    const res = await download(t.app, user, job.id);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-pdf-'));
    const file = path.join(dir, 'r.pdf');
    writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('Cost per tariff zone');
    expect(text).not.toMatch(/Dzienna|Nocna/);
    const rows = text.split('\n').filter((l) => /^\s*(1 · day|2 · night|Total)\s/.test(l));
    expect(rows.map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(['1 · day', '2 · night', 'Total']);
    // kWh always with 3 places, money with 2: "1.404" beside "2.000", never "2" or "3.58".
    for (const l of rows)
      expect(
        l
          .trim()
          .split(/\s{2,}/)
          .slice(1),
        l,
      ).toEqual([expect.stringMatching(/^\d[\d,]*\.\d{3}$/), expect.stringMatching(/^\d[\d,]*\.\d{2}$/)]);
  });

  it('refuses what it cannot export with the field and the spec text', async () => {
    const d = await device(t.app, user);
    const base = {
      deviceId: d.device.id,
      parameters: ['vave1'],
      from: '2026-11-01T00:00:00Z',
      to: '2026-11-02T00:00:00Z',
      interval: '1h',
      format: 'csv',
      fileName: 'x',
    };
    const refused = async (patch: Record<string, unknown>, field: string, key: string) => {
      const body: Record<string, unknown> = { ...base, ...patch };
      for (const [k, v] of Object.entries(patch)) if (v === undefined) delete body[k];
      const res = await t.app.inject({ method: 'POST', url: '/api/exports', headers: user.auth, payload: body });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      const err = res.json() as { errors: { field: string; key?: string; message: string }[] };
      expect(err.errors, JSON.stringify(patch)).toContainEqual(expect.objectContaining({ field, key }));
      return err;
    };
    await refused({ parameters: [] }, 'parameters', 'validation.parameters');
    await refused({ format: undefined }, 'format', 'validation.fileType');
    await refused({ format: 'xlsx' }, 'format', 'validation.fileType');
    await refused({ from: undefined }, 'from', 'validation.dateRange');
    await refused({ to: '2026-10-01T00:00:00Z' }, 'to', 'validation.dateOrder');
    await refused({ parameters: ['vave1', 'nope'] }, 'parameters.1', 'validation.parameter');
    await refused({ fileName: '../etc/passwd' }, 'fileName', 'validation.fileName');
    await refused({ fileName: 'a\\b' }, 'fileName', 'validation.fileName');
    await refused({ fileName: 'line\nbreak' }, 'fileName', 'validation.controlCharacters');
    await refused({ fileName: '  ' }, 'fileName', 'validation.required');
    const long = await refused(
      { interval: 'raw', from: '2025-01-01T00:00:00Z', to: '2026-11-01T00:00:00Z' },
      'to',
      'validation.rangeTooLong',
    );
    expect(long.errors[0]?.message).toBe('Data range is too long.');
    await refused({ format: 'pdf', interval: '15m', from: '2026-09-01T00:00:00Z' }, 'to', 'validation.rangeTooLong');
    // An extension typed by the user is not doubled.
    const job = await startExport(t.app, user, { ...base, fileName: 'report.CSV' });
    expect(job.fileName).toBe('report');
    // Another user's device, and ids of no device, answer 404.
    const other = await signUp(t.app);
    for (const deviceId of [d.device.id, 2_147_483_647, 9_007_199_254_740_991]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/exports', headers: other.auth, payload: { ...base, deviceId } });
      expect(res.statusCode, res.body).toBe(404);
    }
    await waitDone(t.app, user, job.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/exports/${job.id}`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/exports/${job.id}/download`, headers: other.auth })).statusCode).toBe(404);
    const list = (await t.app.inject({ method: 'GET', url: '/api/exports', headers: other.auth })).json() as ExportJob[];
    expect(list).toEqual([]);
    const mine = (await t.app.inject({ method: 'GET', url: '/api/exports', headers: user.auth })).json() as ExportJob[];
    expect(mine[0]?.id).toBe(job.id);
  });

  it('tells the owner on the hub when the file is ready', async () => {
    const d = await device(t.app, user);
    await post(t.app, d.ingestKey, [{ ts: Date.parse('2026-11-03T10:00:00Z'), values: { vave1: 230 } }]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const hub = new HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${port}${HUB_PATH}`, { accessTokenFactory: () => user.token })
      .configureLogging({ log: () => {} })
      .build();
    const ready: ExportReadyEvent[] = [];
    hub.on(HUB_EVENTS.exportReady, (e: ExportReadyEvent) => ready.push(e));
    await hub.start();
    try {
      const job = await startExport(t.app, user, {
        deviceId: d.device.id,
        parameters: ['vave1'],
        from: '2026-11-03T00:00:00Z',
        to: '2026-11-04T00:00:00Z',
        interval: 'raw',
        format: 'csv',
        fileName: 'hub',
      });
      await expect.poll(() => ready.length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(ready[0]).toEqual({ exportId: job.id, fileName: 'hub', downloadUrl: `/api/exports/${job.id}/download` });
    } finally {
      await hub.stop();
    }
  });
});

/** Configuration of an app on a given database (two apps share one: a restart, or two instances). */
function configOn(db: { dataDir: string; databaseUrl: string }, overrides: Partial<AppConfig>): AppConfig {
  return {
    ...loadConfig({
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl,
      JWT_SECRET: 'test-secret-for-signing-tokens-0123456789',
      RCE_IMPORT: 'off',
    }),
    demo: null,
    simulate: false,
    webDistDir: '/nonexistent',
    logLevel: 'silent',
    rawRetentionDays: 36_500,
    ...overrides,
  };
}

describe.each(DIALECTS)('the export queue (%s)', (dialect) => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
  });
  afterAll(async () => db?.drop());

  it('answers 503 with Retry-After when full, keeps a queued job over a restart and runs it then', async () => {
    // An instance that takes requests but runs no job: everything stays queued. Four in all, one per user.
    const a = await buildApp(configOn(db, { jobConcurrency: 0, jobQueueLimit: 4 }), { logger: false });
    await a.app.ready();
    const users = [await signUp(a.app), await signUp(a.app), await signUp(a.app), await signUp(a.app), await signUp(a.app)];
    const user = users[0] as User;
    const d = await device(a.app, user);
    const s = Date.parse('2026-11-05T00:00:00Z');
    await post(
      a.app,
      d.ingestKey,
      Array.from({ length: 60 }, (_, i) => ({ ts: s + i * MIN, values: { pave1: i, eai1: 1 + i / 60 } })),
    );
    const body = {
      parameters: ['pave1', 'eai1'],
      from: new Date(s).toISOString(),
      to: new Date(s + H).toISOString(),
      interval: 'raw',
      format: 'csv',
    };
    const first = await startExport(a.app, user, { ...body, deviceId: d.device.id, fileName: 'one' });
    const expectBusy = async (who: User, deviceId: number) => {
      const busy = await a.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: who.auth,
        payload: { ...body, deviceId, fileName: 'more' },
      });
      expect(busy.statusCode).toBe(503);
      expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
      expect(busy.json()).toMatchObject({ statusCode: 503, errors: [{ key: 'messages.exportBusy' }] });
    };
    // The user's share (a quarter of the queue) is taken.
    await expectBusy(user, d.device.id);
    const others: { user: User; job: ExportJob }[] = [];
    for (const u of users.slice(1, 4)) {
      const own = await device(a.app, u);
      await post(a.app, own.ingestKey, [{ ts: s, values: { pave1: 1 } }]);
      others.push({ user: u, job: await startExport(a.app, u, { ...body, deviceId: own.device.id, fileName: 'other' }) });
    }
    // The queue is full for everyone.
    const fifth = users[4] as User;
    await expectBusy(fifth, (await device(a.app, fifth)).device.id);
    expect(a.ctx.jobs.queue.queueDepths()).toMatchObject({ exports: 4 });
    // The file is not there yet.
    expect((await a.app.inject({ method: 'POST', url: `/api/exports/${first.id}/download`, headers: user.auth })).statusCode).toBe(409);
    await a.app.close();

    // Restarted with a worker: the queued jobs run.
    const b = await buildApp(configOn(db, { jobConcurrency: 1 }), { logger: false });
    await b.app.ready();
    try {
      const done = await waitDone(b.app, user, first.id);
      expect(done.status).toBe('done');
      const rows = parseCsv((await download(b.app, user, first.id)).body) as string[][];
      expect(rows).toHaveLength(61);
      expect(rows[60]).toEqual(['2026-11-05T01:59:00+01:00', '59', String(1 + 59 / 60)]);
      for (const o of others) expect((await waitDone(b.app, o.user, o.job.id)).status).toBe('done');
      const attempts = await b.ctx.storage.db.selectFrom('jobs').select(['attempts', 'status']).execute();
      expect(attempts).toEqual(Array(4).fill({ attempts: 1, status: 'done' }));
    } finally {
      await b.app.close();
    }
  });
});

describe('the export queue with two instances on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
  });
  afterAll(async () => db?.drop());

  it('two instances on one database run each job once, and either sends the file', async () => {
    const apps = [
      await buildApp(configOn(db, { jobConcurrency: 1, jobQueueLimit: 16 }), { logger: false }),
      await buildApp(configOn(db, { jobConcurrency: 1, jobQueueLimit: 16 }), { logger: false }),
    ];
    for (const x of apps) await x.app.ready();
    try {
      const [a, b] = apps as [(typeof apps)[number], (typeof apps)[number]];
      // Two users: one user has at most a quarter of the queue's unfinished exports.
      const users = [await signUp(a.app), await signUp(a.app)] as const;
      const devices = [await device(a.app, users[0]), await device(a.app, users[1])] as const;
      const s = Date.parse('2026-11-06T00:00:00Z');
      for (const d of devices) {
        await post(
          a.app,
          d.ingestKey,
          Array.from({ length: 600 }, (_, i) => ({ ts: s + i * MIN, values: { pave1: i } })),
        );
      }
      const ids: string[] = [];
      const owner: (typeof users)[number][] = [];
      for (let i = 0; i < 8; i++) {
        const app = i % 2 ? b.app : a.app;
        const user = users[Math.floor(i / 4)] as (typeof users)[number];
        const d = devices[Math.floor(i / 4)] as (typeof devices)[number];
        owner.push(user);
        const res = await app.inject({
          method: 'POST',
          url: '/api/exports',
          headers: user.auth,
          payload: {
            deviceId: d.device.id,
            parameters: ['pave1'],
            from: new Date(s).toISOString(),
            to: new Date(s + 10 * H).toISOString(),
            interval: 'raw',
            format: 'csv',
            fileName: `f${i}`,
          },
        });
        expect(res.statusCode, res.body).toBe(202);
        ids.push((res.json() as ExportJob).id);
      }
      for (const [i, id] of ids.entries()) expect((await waitDone(a.app, owner[i] as (typeof users)[number], id)).status).toBe('done');
      const rows = await a.ctx.storage.db.selectFrom('jobs').select(['id', 'attempts']).where('id', 'in', ids).execute();
      expect(rows.map((r) => r.attempts)).toEqual(ids.map(() => 1));
      // Either instance sends the file (it is stored in the database, not on one instance's disk).
      for (const [i, id] of ids.entries())
        expect((parseCsv((await download(i % 2 ? a.app : b.app, owner[i] as (typeof users)[number], id)).body) as string[][]).length).toBe(
          601,
        );
    } finally {
      for (const x of apps) await x.app.close();
    }
  });
});
