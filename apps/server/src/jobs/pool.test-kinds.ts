import { readFileSync } from 'node:fs';
import type { JobKindContext } from './kinds.js';

/** A thread's nice value from its /proc stat line (the 19th field; the name in parentheses may hold spaces). */
export function niceOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** Kinds the pool's tests run (handed to the pool as its `kinds`): one that works, and ones that end their thread. */
export async function run(
  input: { what: 'echo' | 'exit' | 'throwLater' | 'hog' | 'write' | 'wait' | 'send' | 'nice' },
  ctx: JobKindContext,
) {
  switch (input.what) {
    case 'echo': {
      const users = await ctx.storage.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const sink = ctx.sink();
      // Three pieces and a bit (CHUNK_BYTES is 1 MiB).
      for (let i = 0; i < 13; i++) {
        if (!sink.write(Buffer.alloc(256 * 1024, 65 + i))) await new Promise((r) => sink.once('drain', r));
        ctx.progress(i / 13);
      }
      await new Promise<void>((resolve, reject) => sink.end((err?: Error | null) => (err ? reject(err) : resolve())));
      return { threadId: ctx.threadId, users: Number(users.n), chunks: sink.chunks, size: sink.size };
    }
    case 'send': {
      // Messages of the kind's own, one at a time, each answered by the main thread; their buffers handed over.
      const answers: unknown[] = [];
      let detached = 0;
      for (let i = 0; i < 3; i++) {
        const values = Float64Array.from([i, i + 0.5]);
        answers.push(await ctx.send({ i, values }, [values.buffer]));
        if (values.length === 0) detached++;
      }
      return { threadId: ctx.threadId, answers, detached };
    }
    case 'nice':
      return { threadId: ctx.threadId, nice: niceOf(readFileSync('/proc/thread-self/stat', 'utf8')) };
    case 'write':
      // The thread's connection is read-only.
      await ctx.storage.db
        .insertInto('jobs')
        .values({ id: 'x', queue: 'q', user_id: 1, payload: '{}', status: 'queued', created_at: 0 })
        .execute();
      return null;
    case 'exit':
      process.exit(7);
      break;
    case 'throwLater':
      setTimeout(() => {
        throw new Error('boom');
      }, 1);
      await new Promise((r) => setTimeout(r, 60_000));
      return null;
    case 'hog': {
      const keep: number[][] = [];
      for (;;) keep.push(new Array(1_000_000).fill(keep.length + 0.5));
    }
    case 'wait':
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 60_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason as Error);
        });
      });
      return null;
  }
}
