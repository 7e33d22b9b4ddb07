import { threadId } from 'node:worker_threads';
import type { ImportJob } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import type { ImportKindResult } from './import.kind.js';
import { CHUNK_ROWS, type ImportBatch } from './import-run.js';

const MIN = 60_000;
const H = 3_600_000;
type User = Awaited<ReturnType<typeof signUp>>;

/** A multipart/form-data body (imports.test.ts has the same; a test file is not imported, its tests would run here). */
function form(fields: Record<string, string>, file: { name: string; data: string }) {
  const boundary = `----pw${Math.random().toString(16).slice(2)}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const payload = Buffer.from(
    `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.data}\r\n--${boundary}--\r\n`,
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Structural, not timed: an import's reading, parsing and checking run on a job thread (the job records the
 * thread it ran on), and only its batches of new rows come back to the main thread's readings writer — none
 * for a dry run, none for rows the device already has.
 */
describe.each(DIALECTS)('imports run on job threads (%s)', (dialect) => {
  let t: TestApp;
  let user: User;
  let deviceId: number;
  // 9,000 1-minute rows: three chunks of the import (4,000 rows each at most), a week ago.
  const rows = 9_000;
  const start = Math.floor((Date.now() - 8 * 86_400_000) / H) * H;
  const csv = [
    'time,pave1 [W],vave1 [V]',
    ...Array.from({ length: rows }, (_, i) => `${new Date(start + i * MIN).toISOString()},${100 + (i % 50)},${230 + (i % 7) / 10}`),
  ].join('\n');

  beforeAll(async () => {
    t = await buildTestApp(dialect, { importMaxBytes: 8 * 1024 * 1024, importMaxRows: 100_000 });
    user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'Imported', mac: '41:00:00:00:31:01', typeCode: 13 },
    });
    expect(res.statusCode, res.body).toBe(200);
    deviceId = (res.json() as { device: { id: number } }).device.id;
    await t.ctx.jobs.pool.warm();
  });
  afterAll(async () => t?.close());

  async function importCsv(dryRun: boolean): Promise<{ job: ImportJob; result: ImportKindResult }> {
    const f = form({ deviceId: String(deviceId), format: 'phasewatch', dryRun: String(dryRun) }, { name: 'rows.csv', data: csv });
    const res = await t.app.inject({ method: 'POST', url: '/api/imports', headers: { ...user.auth, ...f.headers }, payload: f.payload });
    expect(res.statusCode, res.body).toBe(202);
    const id = (res.json() as { id: string }).id;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = (await t.app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: user.auth })).json() as ImportJob;
      if (job.status === 'done' || job.status === 'failed') {
        const row = await t.ctx.storage.db.selectFrom('jobs').select('result').where('id', '=', id).executeTakeFirstOrThrow();
        return { job, result: JSON.parse(row.result ?? '{}') as ImportKindResult };
      }
      if (Date.now() > deadline) throw new Error(`import ${id} still ${job.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const expectJobThread = (result: ImportKindResult) => {
    // A worker thread's id: never the main thread's (0), nor the thread the app runs on here.
    expect(typeof result.threadId).toBe('number');
    expect(result.threadId).toBeGreaterThan(0);
    expect(result.threadId).not.toBe(threadId);
  };

  it('a dry run parses and checks on a job thread and sends nothing to be written', async () => {
    const write = vi.spyOn(t.ctx.telemetry.writer, 'write');
    try {
      const { job, result } = await importCsv(true);
      expect(job).toMatchObject({ status: 'done', dryRun: true, rows, imported: rows, duplicates: 0, refused: [], problem: null });
      expect(job.parameters).toEqual(['pave1', 'vave1']);
      expect(job.from).toBe(new Date(start).toISOString());
      expect(job.to).toBe(new Date(start + (rows - 1) * MIN).toISOString());
      // The API answers as before: the thread is the job's record, not part of the contract.
      expect(job).not.toHaveProperty('threadId');
      expectJobThread(result);
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });

  it('an import parses on a job thread; its batches are written through the main thread’s readings writer; again, all duplicates', async () => {
    const write = vi.spyOn(t.ctx.telemetry.writer, 'write');
    try {
      const { job, result } = await importCsv(false);
      expect(job).toMatchObject({ status: 'done', dryRun: false, rows, imported: rows, duplicates: 0, refusedCount: 0, progress: 1 });
      expectJobThread(result);
      // The chunks came back as batches of typed arrays, in order, and were written here.
      const batches = write.mock.calls.map((c) => c[0] as ImportBatch);
      const sizes = Array.from({ length: Math.ceil(rows / CHUNK_ROWS) }, (_, k) => Math.min(CHUNK_ROWS, rows - k * CHUNK_ROWS));
      expect(sizes.length).toBeGreaterThan(2);
      expect(batches.map((b) => b.ts.length)).toEqual(sizes);
      expect(batches.every((b) => b.deviceId === deviceId && b.ts instanceof Float64Array)).toBe(true);
      expect(batches[0]?.ts[0]).toBe(start);
      const stored = await t.app.inject({
        method: 'GET',
        url: `/api/devices/${deviceId}/readings?from=${start}&to=${start + rows * MIN}&interval=raw`,
        headers: user.auth,
      });
      expect(stored.statusCode, stored.body).toBe(200);
      expect((stored.json() as { ts: number[] }).ts.length).toBe(rows);

      // The job thread's own connection sees what the main thread wrote: every row a duplicate, nothing sent.
      write.mockClear();
      const again = await importCsv(false);
      expect(again.job).toMatchObject({ status: 'done', rows, imported: 0, duplicates: rows });
      expectJobThread(again.result);
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });
});
