import { threadId } from 'node:worker_threads';
import type { ExportJob } from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import type { ExportResult } from './exports.service.js';

const MIN = 60_000;
type User = Awaited<ReturnType<typeof signUp>>;

async function meter(app: FastifyInstance, user: User, mac: string) {
  const res = await app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name: mac, mac, typeCode: 13 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { device: { id: number }; ingestKey: string };
}

async function postDay(app: FastifyInstance, key: string, start: number) {
  const readings = Array.from({ length: 1440 }, (_, i) => ({
    ts: new Date(start + i * MIN).toISOString(),
    values: { pave1: 100 + (i % 50), vave1: 230 + (i % 7) / 10, eai1: 1000 + i / 60 },
  }));
  const res = await app.inject({ method: 'POST', url: '/api/ingest', headers: { 'x-device-key': key }, payload: { readings } });
  expect(res.statusCode, res.body).toBe(200);
}

async function waitDone(app: FastifyInstance, user: User, id: string, pollMs = 50): Promise<ExportJob> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = (await app.inject({ method: 'GET', url: `/api/exports/${id}`, headers: user.auth })).json() as ExportJob;
    if (job.status === 'done' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`export ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * Structural, not timed: an export's reading and rendering run on a job thread. The job records the thread
 * it ran on, and the main thread's readings code is not called while it runs.
 */
describe.each(DIALECTS)('exports run on job threads (%s)', (dialect) => {
  let t: TestApp;
  let user: User;
  let dev: Awaited<ReturnType<typeof meter>>;
  const day = Date.parse('2026-11-10T00:00:00Z');
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
    dev = await meter(t.app, user, '41:00:00:00:00:01');
    await postDay(t.app, dev.ingestKey, day);
    await t.ctx.jobs.pool.warm();
  });
  afterAll(async () => t?.close());

  const body = (format: 'csv' | 'pdf') => ({
    deviceId: dev.device.id,
    parameters: ['pave1', 'vave1', 'eai1'],
    from: new Date(day).toISOString(),
    to: new Date(day + 1440 * MIN).toISOString(),
    interval: 'raw',
    format,
    fileName: `day-${format}`,
  });

  it.each(['csv', 'pdf'] as const)('a %s export reads and renders on a job thread, not the main thread', async (format) => {
    const repo = t.ctx.telemetry.readingsRepository;
    const service = t.ctx.telemetry.readings;
    const spies = [
      vi.spyOn(repo, 'raw'),
      vi.spyOn(repo, 'levelOf'),
      vi.spyOn(service, 'readings'),
      vi.spyOn(service, 'readingsOver'),
      vi.spyOn(service, 'energyCounters'),
    ];
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/exports', headers: user.auth, payload: body(format) });
      expect(res.statusCode, res.body).toBe(202);
      const id = (res.json() as ExportJob).id;
      const done = await waitDone(t.app, user, id);
      expect(done.status, done.error ?? '').toBe('done');
      expect(done.size).toBeGreaterThan(format === 'csv' ? 1440 * 20 : 1000);
      const row = await t.ctx.storage.db.selectFrom('jobs').select('result').where('id', '=', id).executeTakeFirstOrThrow();
      const result = JSON.parse(row.result ?? '{}') as ExportResult;
      // A worker thread's id: never the main thread's (0), nor the thread the app runs on here.
      expect(typeof result.threadId).toBe('number');
      expect(result.threadId).toBeGreaterThan(0);
      expect(result.threadId).not.toBe(threadId);
      // Nothing of the export was read through the main thread's readings code.
      for (const s of spies) expect(s, s.getMockName()).not.toHaveBeenCalled();
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });

  it('a one-day export is claimed at once and ready within seconds (the pool is woken, not polled)', async () => {
    const started = Date.now();
    const res = await t.app.inject({ method: 'POST', url: '/api/exports', headers: user.auth, payload: body('csv') });
    expect(res.statusCode, res.body).toBe(202);
    const id = (res.json() as ExportJob).id;
    const done = await waitDone(t.app, user, id, 10);
    const took = Date.now() - started;
    expect(done.status).toBe('done');
    // Claimed at once, not at the queue's next poll (every 2 s): the figure on a quiet machine is 0.3-0.5 s
    // end to end; the bound here leaves room for a machine shared with other work.
    const row = await t.ctx.storage.db
      .selectFrom('jobs')
      .select(['created_at', 'started_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect((row.started_at ?? Number.POSITIVE_INFINITY) - row.created_at).toBeLessThan(1000);
    expect(took).toBeLessThan(5000);
  });
});

describe('job starts against the per-user cap and RATE_LIMIT_JOBS', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('a start refused by the cap (503) does not use up the hour; accepted ones do', async () => {
    t = await buildTestApp('sqlite', {
      // Nothing runs: the user's jobs stay unfinished. A quarter of 16: four each.
      jobConcurrency: 0,
      jobQueueLimit: 16,
      rateLimits: {
        ingest: { max: 0, windowMs: 60_000 },
        reads: { max: 0, windowMs: 60_000 },
        jobs: { max: 5, windowMs: 3_600_000 },
      },
    });
    const user = await signUp(t.app);
    const d = await meter(t.app, user, '41:00:00:00:00:02');
    const start = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: user.auth,
        payload: {
          deviceId: d.device.id,
          parameters: ['pave1'],
          from: '2026-11-10T00:00:00Z',
          to: '2026-11-11T00:00:00Z',
          interval: 'raw',
          format: 'csv',
          fileName: 'f',
        },
      });
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await start()).statusCode);
    // Four unfinished is the user's share; the three refusals are not counted against the five an hour.
    expect(codes).toEqual([202, 202, 202, 202, 503, 503, 503]);
    // Two of them finish: one more start is the fifth of the hour, the next is past the limit.
    const ids = (await t.ctx.storage.db.selectFrom('jobs').select('id').orderBy('created_at').limit(2).execute()).map((r) => r.id);
    await t.ctx.storage.db.updateTable('jobs').set({ status: 'done' }).where('id', 'in', ids).execute();
    expect((await start()).statusCode).toBe(202);
    const limited = await start();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ statusCode: 429, errors: [{ key: 'errors.tooManyRequests' }] });
  });
});
