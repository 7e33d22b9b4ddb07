import http from 'node:http';
import { gzipSync } from 'node:zlib';
import type { ExportJob, ImportJob } from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

const MIN = 60_000;
const H = 3_600_000;
type User = Awaited<ReturnType<typeof signUp>>;
type Reading = { ts: number; values: Record<string, number> };

let macs = 0;
async function device(app: FastifyInstance, user: User, name = 'Meter') {
  const mac = `41:00:00:00:${String(Math.floor(macs / 100)).padStart(2, '0')}:${String(macs++ % 100).padStart(2, '0')}`;
  const res = await app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name, mac, typeCode: 13 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { device: { id: number }; ingestKey: string };
}

async function ingest(app: FastifyInstance, key: string, readings: Reading[]) {
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

/** A multipart/form-data body. */
export function form(fields: Record<string, string>, file?: { name: string; data: Buffer | string }) {
  const boundary = `----pw${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function startImport(
  app: FastifyInstance,
  user: User,
  fields: Record<string, string>,
  file: { name: string; data: Buffer | string },
) {
  const f = form(fields, file);
  const res = await app.inject({ method: 'POST', url: '/api/imports', headers: { ...user.auth, ...f.headers }, payload: f.payload });
  return res;
}

async function waitImport(app: FastifyInstance, user: User, id: string): Promise<ImportJob> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: user.auth });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json() as ImportJob;
    if (job.status === 'done' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function importFile(
  app: FastifyInstance,
  user: User,
  fields: Record<string, string>,
  data: Buffer | string,
  name = 'history.csv',
): Promise<ImportJob> {
  const res = await startImport(app, user, fields, { name, data });
  expect(res.statusCode, res.body).toBe(202);
  return waitImport(app, user, (res.json() as { id: string }).id);
}

async function raw(app: FastifyInstance, user: User, id: number, from: number, to: number) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/devices/${id}/readings?from=${from}&to=${to}&interval=raw`,
    headers: user.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ts: number[]; series: Record<string, { values?: (number | null)[]; value?: (number | null)[] }> };
}

async function buckets(app: FastifyInstance, user: User, id: number, from: number, to: number, interval: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/devices/${id}/readings?from=${from}&to=${to}&interval=${interval}`,
    headers: user.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ts: number[]; series: Record<string, Record<string, unknown>> };
}

describe.each(DIALECTS)('history import (%s)', (dialect) => {
  let t: TestApp;
  let user: User;
  beforeAll(async () => {
    // Fixed dates (October 2026) are imported below: a retention of a century keeps them within the
    // window whenever the test runs (the 400-day default refuses them from 28 November 2027).
    t = await buildTestApp(dialect, { importMaxBytes: 8 * 1024 * 1024, importMaxRows: 100_000, rawRetentionDays: 36_500 });
    user = await signUp(t.app);
  });
  afterAll(async () => t?.close());

  it('round trip: a raw CSV export imported into another device gives identical readings, rollups and days', async () => {
    const a = await device(t.app, user, 'Source');
    const b = await device(t.app, user, 'Target');
    // Two days of 5-minute readings across midnight (local), a week ago.
    const start = Math.floor((Date.now() - 7 * 86_400_000) / H) * H;
    const readings: Reading[] = Array.from({ length: 576 }, (_, i) => ({
      ts: start + i * 5 * MIN,
      values: {
        vave1: 229.5 + (i % 7) / 10,
        pave1: 100 * (i % 13) - 250.25,
        eai1: 1000 + i * 0.125,
        ...(i % 5 === 0 ? { eae1: 10 + i * 0.001 } : {}),
      },
    }));
    await ingest(t.app, a.ingestKey, readings);
    const to = start + 576 * 5 * MIN;
    const ex = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: user.auth,
      payload: {
        deviceId: a.device.id,
        parameters: ['pave1', 'vave1', 'eai1', 'eae1'],
        from: new Date(start).toISOString(),
        to: new Date(to).toISOString(),
        interval: 'raw',
        format: 'csv',
        fileName: 'source',
      },
    });
    expect(ex.statusCode, ex.body).toBe(202);
    const exportId = (ex.json() as ExportJob).id;
    await t.ctx.jobs.queue.idle();
    const file = await t.app.inject({ method: 'POST', url: `/api/exports/${exportId}/download`, headers: user.auth });
    expect(file.statusCode).toBe(200);

    const dry = await importFile(t.app, user, { deviceId: String(b.device.id), format: 'phasewatch', dryRun: 'true' }, file.rawPayload);
    expect(dry).toMatchObject({
      status: 'done',
      dryRun: true,
      rows: 576,
      imported: 576,
      duplicates: 0,
      refused: [],
      from: new Date(start).toISOString(),
      to: new Date(to - 5 * MIN).toISOString(),
      problem: null,
      localTimes: false,
    });
    expect(dry.parameters).toEqual(['pave1', 'vave1', 'eai1', 'eae1']);
    expect(dry.columns).toEqual(['time', 'pave1 [W]', 'vave1 [V]', 'eai1 [kWh]', 'eae1 [kWh]']);
    // A dry run writes nothing.
    expect((await raw(t.app, user, b.device.id, start, to)).ts).toEqual([]);

    const done = await importFile(t.app, user, { deviceId: String(b.device.id), format: 'phasewatch', dryRun: 'false' }, file.rawPayload);
    expect(done).toMatchObject({ status: 'done', dryRun: false, rows: 576, imported: 576, duplicates: 0, refusedCount: 0, progress: 1 });
    expect(await raw(t.app, user, b.device.id, start, to)).toEqual(await raw(t.app, user, a.device.id, start, to));
    await t.ctx.telemetry.compactNow();
    for (const interval of ['15m', '1h', '24h'])
      expect(await buckets(t.app, user, b.device.id, start, to, interval)).toEqual(
        await buckets(t.app, user, a.device.id, start, to, interval),
      );

    // Again: every row is a duplicate, nothing is overwritten (a changed value in the file stays unread).
    const changed = file.rawPayload.toString('utf8').replace(/,1000,/, ',999,');
    const again = await importFile(t.app, user, { deviceId: String(b.device.id), format: 'phasewatch', dryRun: 'false' }, changed);
    expect(again).toMatchObject({ rows: 576, imported: 0, duplicates: 576 });
    expect(await raw(t.app, user, b.device.id, start, to)).toEqual(await raw(t.app, user, a.device.id, start, to));
  });

  it('Home Assistant statistics: hourly cumulative sums become counter readings; the autumn hour read in order, the spring gap refused', async () => {
    const d = await device(t.app, user, 'From HA');
    // Local (Europe/Warsaw) hours of 2026-10-25, the autumn change: 02:00 comes twice.
    const hours = ['00', '01', '02', '02', '03', '04'];
    const lines = ['statistic_id,start,state,sum'];
    let sum = 100;
    for (const h of hours) {
      sum += 0.5;
      lines.push(`sensor.grid_energy_import,2026-10-25 ${h}:00:00,${sum},${sum}`);
    }
    // An export statistic beside it, in UTC; and a spring-gap row and a bad one.
    lines.push('sensor.grid_energy_export,2026-10-24T22:00:00Z,3,3');
    lines.push('sensor.grid_energy_export,2026-10-24T23:00:00Z,3.25,3.25');
    lines.push('sensor.grid_energy_import,2026-03-29 02:00:00,1,1');
    lines.push('sensor.grid_energy_import,yesterday,1,1');
    const job = await importFile(
      t.app,
      user,
      { deviceId: String(d.device.id), format: 'home-assistant', dryRun: 'false' },
      lines.join('\n'),
    );
    expect(job.status).toBe('done');
    expect(job.problem).toBeNull();
    expect(job.rows).toBe(10);
    expect(job.imported).toBe(6);
    expect(job.localTimes).toBe(true);
    expect(job.timezone).toBe('Europe/Warsaw');
    expect(job.refused.map((r) => [r.line, r.key])).toEqual([
      [10, 'imports.refused.dstGap'],
      [11, 'imports.refused.time'],
    ]);
    expect(job.parameters).toEqual(['energy3phases_import', 'energy3phases_export']);
    // 00:00 CEST = 22:00Z; the sum at the end of each hour; the second 02:00 is 01:00Z.
    const from = Date.parse('2026-10-24T22:00:00Z');
    const r = await raw(t.app, user, d.device.id, from, from + 8 * H);
    expect(r.ts).toEqual([1, 2, 3, 4, 5, 6].map((k) => from + k * H));
    expect(r.series.energy3phases_import?.value).toEqual([100.5, 101, 101.5, 102, 102.5, 103]);
    expect(r.series.energy3phases_export?.value).toEqual([3, 3.25, null, null, null, null]);
    // The day's energy from the rollups: the sums' rise.
    await t.ctx.telemetry.compactNow();
    const hourly = await buckets(t.app, user, d.device.id, from, from + 8 * H, '1h');
    const deltas = (hourly.series.energy3phases_import as { delta: (number | null)[] }).delta;
    expect(deltas.reduce<number>((a, v) => a + (v ?? 0), 0)).toBeCloseTo(2.5, 9);
  });

  it('generic CSV with a mapping: kW and Wh converted, semicolons and decimal commas, a zone named in the mapping', async () => {
    const d = await device(t.app, user, 'Generic');
    const base = Math.floor((Date.now() - 3 * 86_400_000) / H) * H;
    const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    const csv = [
      'Zeit;Leistung;Zähler;Spannung',
      `${utc(base)};1,5;1234500;230,1`,
      `${utc(base + MIN)};2;1234600;abc`,
      `${utc(base + 2 * MIN)};-0,25;1234700;231`,
      `${utc(base + 3 * MIN)};;;`,
    ].join('\r\n');
    const mapping = {
      time: { column: 'Zeit', zone: 'UTC' },
      columns: [
        { column: 'Leistung', parameter: 'power3phases', unit: 'kW' },
        { column: 'Zähler', parameter: 'energy3phases_import', unit: 'Wh' },
        { column: 'Spannung', parameter: 'vave1' },
      ],
    };
    const job = await importFile(
      t.app,
      user,
      { deviceId: String(d.device.id), format: 'generic', dryRun: 'false', mapping: JSON.stringify(mapping) },
      csv,
    );
    expect(job).toMatchObject({ status: 'done', rows: 4, imported: 2, refusedCount: 2, timezone: 'UTC', localTimes: false });
    expect(job.refused.map((r) => [r.line, r.key, r.column ?? null])).toEqual([
      [3, 'imports.refused.value', 'Spannung'],
      [5, 'imports.refused.empty', null],
    ]);
    const r = await raw(t.app, user, d.device.id, base, base + H);
    expect(r.ts).toEqual([base, base + 2 * MIN]);
    expect(r.series.power3phases?.values).toEqual([1500, -250]);
    expect(r.series.energy3phases_import?.value).toEqual([1234.5, 1234.7]);
    expect(r.series.vave1?.values).toEqual([230.1, 231]);
  });

  it('a file it cannot read: the dry run names the columns found and why', async () => {
    const d = await device(t.app, user);
    const job = await importFile(
      t.app,
      user,
      { deviceId: String(d.device.id), format: 'phasewatch', dryRun: 'true' },
      'Date,Consumption (kWh),Cost\n2026-11-01,3.2,4.1\n',
    );
    expect(job.status).toBe('done');
    expect(job.columns).toEqual(['Date', 'Consumption (kWh)', 'Cost']);
    expect(job.problem?.key).toBe('imports.problem.noTimeColumn');
    expect(job.problem?.message).toMatch(/time/);
    expect(job.imported).toBe(0);
    const ha = await importFile(t.app, user, { deviceId: String(d.device.id), format: 'home-assistant', dryRun: 'true' }, 'a,b\n1,2\n');
    expect(ha.problem?.key).toBe('imports.problem.notHomeAssistant');
    const mapped = await importFile(
      t.app,
      user,
      {
        deviceId: String(d.device.id),
        format: 'generic',
        dryRun: 'true',
        mapping: JSON.stringify({ time: { column: 'when' }, columns: [{ column: 'x', parameter: 'pave1' }] }),
      },
      'time,x\n',
    );
    expect(mapped.problem).toMatchObject({ key: 'imports.problem.mappingColumn', column: 'when' });
  });

  it('bad requests: 400/413/415 in the error shape; another user’s device and import answer 404', async () => {
    const d = await device(t.app, user);
    const fields = { deviceId: String(d.device.id), format: 'phasewatch', dryRun: 'true' };
    const json = await t.app.inject({ method: 'POST', url: '/api/imports', headers: user.auth, payload: fields });
    expect(json.statusCode).toBe(415);
    expect(json.json().errors[0].key).toBe('errors.importMultipart');
    const noFile = form(fields);
    const nf = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...user.auth, ...noFile.headers },
      payload: noFile.payload,
    });
    expect(nf.statusCode).toBe(400);
    expect(nf.json().errors[0]).toMatchObject({ field: 'file', key: 'errors.importNoFile' });
    const badFormat = await startImport(t.app, user, { ...fields, format: 'xlsx' }, { name: 'a.csv', data: 'time\n' });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().errors[0].field).toBe('format');
    const zip = await startImport(t.app, user, fields, { name: 'a.zip', data: Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]) });
    expect(zip.statusCode).toBe(400);
    expect(zip.json().errors[0].key).toBe('errors.importCompressed');
    const long = await startImport(t.app, user, fields, { name: 'a.csv', data: `time,pave1 [W]\n${'1'.repeat(70_000)}\n` });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors[0].key).toBe('errors.importLineTooLong');
    const big = await startImport(t.app, user, fields, { name: 'a.csv', data: 'x,1\n'.repeat(2_300_000) });
    expect(big.statusCode).toBe(413);
    // 200 MB of rows packed into ~200 KB: unpacked only up to the limit.
    const bomb = gzipSync(Buffer.from(`2026-11-01T00:00:00Z,${'1'.repeat(200)}\n`.repeat(900_000)));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const gz = await startImport(t.app, user, fields, { name: 'a.csv.gz', data: bomb });
    expect(gz.statusCode).toBe(413);
    expect(gz.json().errors[0].key).toBe('errors.importTooLarge');
    // A gzip file within the limits is read.
    const ok = await importFile(
      t.app,
      user,
      fields,
      gzipSync(Buffer.from(`time,pave1 [W]\n${new Date(Date.now() - H).toISOString()},5\n`)),
    );
    expect(ok).toMatchObject({ status: 'done', rows: 1, imported: 1 });

    const other = await signUp(t.app);
    const theirs = await startImport(t.app, other, fields, { name: 'a.csv', data: 'time,pave1 [W]\n' });
    expect(theirs.statusCode).toBe(404);
    const res = await t.app.inject({ method: 'GET', url: `/api/imports/${ok.id}`, headers: other.auth });
    expect(res.statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'GET', url: '/api/imports/00000000-0000-4000-8000-000000000000', headers: user.auth });
    expect(missing.statusCode).toBe(404);
  });

  it('a 1 GB line over a real socket is refused after its first 64 KiB, without the server taking it in', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const d = await device(t.app, user);
    const boundary = 'pwlongline';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="deviceId"\r\n\r\n${d.device.id}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n`,
    );
    const piece = Buffer.alloc(1 << 20, 0x31);
    const rssBefore = process.memoryUsage().rss;
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/imports',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      req.write(head);
      const pump = () => {
        while (!answered && sent < 1024 && !req.destroyed) {
          sent++;
          if (!req.write(piece)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!answered && !req.destroyed) req.end();
      };
      pump();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errors[0].key).toBe('errors.importLineTooLong');
    // The answer came long before the gigabyte was sent, and memory did not take it in.
    expect(sent).toBeLessThan(256);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  });
});
