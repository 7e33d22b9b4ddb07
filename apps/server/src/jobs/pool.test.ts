import { readFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStorage, DIALECTS, type TestStorage } from '../test/storage.js';
import { JOB_FAILURES, JobFailure } from './kinds.js';
import { JobPool, jobTarget, type PoolRunOptions } from './pool.js';
import { niceOf } from './pool.test-kinds.js';
import { JOB_THREAD_NICE } from './thread-priority.js';

const kinds = { test: new URL('./pool.test-kinds.ts', import.meta.url).href };

function options(signal = new AbortController().signal, message?: PoolRunOptions['message']) {
  const pieces = new Map<number, Buffer>();
  const progress: number[] = [];
  const opts: PoolRunOptions = {
    signal,
    progress: (f) => {
      progress.push(f);
    },
    save: async (seq, data) => {
      pieces.set(seq, Buffer.from(data));
    },
    ...(message ? { message } : {}),
  };
  return { opts, pieces, progress };
}

describe.each(DIALECTS)('job pool (%s)', (dialect) => {
  let ts: TestStorage;
  let pool: JobPool;
  beforeAll(async () => {
    ts = await createTestStorage(dialect);
    pool = new JobPool({
      size: 1,
      target: jobTarget(ts.storage),
      rules: { jitterRatio: 0.9, gapLimitMs: 3_600_000 },
      maxOldGenerationSizeMb: 48,
      log: pino({ level: 'silent' }),
      kinds,
      cancelGraceMs: 2000,
    });
    pool.start();
    await pool.warm();
  });
  afterAll(async () => {
    await pool?.close();
    await ts?.dispose();
  });

  const run = (what: string, signal?: AbortSignal) => {
    const o = options(signal);
    return { done: pool.run('test', { what }, o.opts), ...o };
  };

  it('runs a kind on a worker thread with its own connection; its pieces come back in order', async () => {
    const r = run('echo');
    const out = (await r.done) as { threadId: number; users: number; chunks: number; size: number };
    expect(out.threadId).toBeGreaterThan(0);
    expect(out.threadId).not.toBe(threadId);
    expect(out.users).toBe(0);
    expect(out).toMatchObject({ chunks: 4, size: 13 * 256 * 1024 });
    expect([...r.pieces.keys()]).toEqual([0, 1, 2, 3]);
    expect(r.pieces.get(0)?.length).toBe(1024 * 1024);
    expect(r.pieces.get(3)?.[0]).toBe(65 + 12);
    expect(r.progress.length).toBeGreaterThan(0);
  });

  it("a kind's messages reach the main thread one at a time, with their typed arrays, and get its answers", async () => {
    const got: { i: number; values: number[] }[] = [];
    let busy = 0;
    let overlapped = false;
    const o = options(undefined, async (data) => {
      const m = data as { i: number; values: Float64Array };
      if (busy++ > 0) overlapped = true;
      // Answered later: the kind waits for it before its next message.
      await new Promise((r) => setTimeout(r, 20));
      busy--;
      got.push({ i: m.i, values: Array.from(m.values) });
      return m.i * 10;
    });
    const out = (await pool.run('test', { what: 'send' }, o.opts)) as { threadId: number; answers: unknown[]; detached: number };
    expect(out.threadId).not.toBe(threadId);
    expect(out.answers).toEqual([0, 10, 20]);
    expect(got).toEqual([
      { i: 0, values: [0, 0.5] },
      { i: 1, values: [1, 1.5] },
      { i: 2, values: [2, 2.5] },
    ]);
    expect(out.detached).toBe(3);
    expect(overlapped).toBe(false);
    // Without a handler on the main thread the kind's message is refused, and the job fails with it.
    await expect(run('send').done).rejects.toThrow(/no job takes this message/);
  });

  it('a job thread runs at a lower CPU priority than the main thread (Linux: its own nice value)', async () => {
    const main = niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
    const out = (await run('nice').done) as { threadId: number; nice: number };
    expect(out.threadId).not.toBe(threadId);
    expect(out.nice).toBe(Math.min(19, main + JOB_THREAD_NICE));
    // Only that thread: the main thread keeps its own.
    expect(niceOf(readFileSync('/proc/thread-self/stat', 'utf8'))).toBe(main);
  });

  it("the thread's connection is read-only", async () => {
    await expect(run('write').done).rejects.toThrow(/read.?only/i);
  });

  it.each([
    ['exit', JOB_FAILURES.crashed],
    ['throwLater', JOB_FAILURES.crashed],
    ['hog', JOB_FAILURES.outOfMemory],
  ])('a thread that ends (%s) fails its job with a reason the user can read; the pool replaces it', async (what, key) => {
    const before = ((await run('echo').done) as { threadId: number }).threadId;
    const failed = await run(what).done.then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(JobFailure);
    expect((failed as JobFailure).message).toBe(key);
    const after = ((await run('echo').done) as { threadId: number }).threadId;
    expect(after).not.toBe(before);
  });

  it('a cancelled job stops and its thread takes the next one', async () => {
    const abort = new AbortController();
    const r = run('wait', abort.signal);
    await new Promise((res) => setTimeout(res, 100));
    abort.abort(new Error('stopping'));
    await expect(r.done).rejects.toThrow('stopping');
    expect(((await run('echo').done) as { users: number }).users).toBe(0);
  });
});
