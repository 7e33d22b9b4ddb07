import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { CounterRules } from '@phasewatch/shared';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ReadingsRepository, ReadingsService } from '../modules/readings/index.js';
import { type Storage, sqliteKysely } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import { ChunkSink } from './chunk-sink.js';
import type { JobKind, JobKindContext, JobKinds } from './kinds.js';
import type { FromJobThread, JobTarget, ToJobThread } from './pool.js';
import { giveWay } from './thread-priority.js';

/**
 * A job thread of the pool (see pool.ts): its own read-only connection, the readings service over it, and
 * one job at a time of a kind from the registry (kinds.ts). Importing storage/database.js (through the
 * readings modules) sets the same PostgreSQL type parsers as the main thread's.
 */
const { target, rules, kinds } = workerData as { target: JobTarget; rules: CounterRules; kinds: JobKinds };

const port = parentPort;
if (!port) throw new Error('job.worker runs as a worker thread');

giveWay();

function openReadOnly(): Storage {
  if (target.dialect === 'sqlite') {
    // Read-only beside the app's and the writer's connections: WAL lets it read while they write.
    const sqlite = new SqliteDatabase(target.file, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('cache_size = -16384');
    // The file memory-mapped for reads, as on the app's connection: its pages are the page cache's (file-backed,
    // given back under pressure), not the thread's heap.
    sqlite.pragma('mmap_size = 1073741824');
    return {
      db: sqliteKysely(sqlite),
      dialect: 'sqlite',
      location: target.file,
      pgPool: null,
      sqlite,
      async close() {
        await this.db.destroy();
      },
    };
  }
  // Two clients: an export reads its next piece while it formats the current one.
  // Read-only sessions: a kind cannot write through them by mistake.
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 2,
    application_name: 'phasewatch-jobs',
    options: '-c default_transaction_read_only=on',
  });
  pool.on('error', () => {});
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    dialect: 'postgres',
    location: 'job thread',
    pgPool: pool,
    sqlite: null,
    async close() {
      await this.db.destroy();
    },
  };
}

const storage = openReadOnly();
const readingsRepo = new ReadingsRepository(storage, { rules });
const readings = new ReadingsService(readingsRepo);

const post = (m: FromJobThread, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

interface Current {
  abort: AbortController;
  saves: Map<number, { resolve: () => void; reject: (e: Error) => void }>;
  /** Messages sent (`ctx.send`) waiting for the main thread's answer. */
  answers: Map<number, { resolve: (value: unknown) => void; reject: (e: Error) => void }>;
}

let current: Current | null = null;

async function kindOf(name: string): Promise<JobKind> {
  const url = kinds[name];
  if (!url) throw new Error(`unknown job kind ${name}`);
  return (await import(url)) as JobKind;
}

async function run(kind: string, input: unknown): Promise<void> {
  const abort = new AbortController();
  const saves: Current['saves'] = new Map();
  const answers: Current['answers'] = new Map();
  current = { abort, saves, answers };
  let last = 0;
  let sent = 0;
  const ctx: JobKindContext = {
    storage,
    readings,
    readingsRepo,
    signal: abort.signal,
    threadId,
    progress(fraction) {
      // The main thread stores it at most every half second; fewer messages than that are enough.
      const t = Date.now();
      if (t - last < 200 && fraction < 1) return;
      last = t;
      post({ type: 'progress', fraction });
    },
    send: (data, transfer = []) =>
      new Promise<unknown>((resolve, reject) => {
        const seq = sent++;
        answers.set(seq, { resolve, reject });
        post({ type: 'message', seq, data }, [...new Set(transfer)]);
      }),
    sink: () =>
      new ChunkSink(
        (seq, data) =>
          new Promise<void>((resolve, reject) => {
            saves.set(seq, { resolve, reject });
            // A copy of its own, handed over (not copied again).
            const own = new Uint8Array(data);
            post({ type: 'piece', seq, data: own }, [own.buffer as ArrayBuffer]);
          }),
      ),
  };
  try {
    const value = await (await kindOf(kind)).run(input, ctx);
    post({ type: 'done', value });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    post({ type: 'failed', message: e.message, ...('key' in e && typeof e.key === 'string' ? { key: e.key } : {}) });
  } finally {
    current = null;
  }
}

port.on('message', (m: ToJobThread) => {
  switch (m.type) {
    case 'run':
      void run(m.kind, m.input);
      return;
    case 'cancel':
      current?.abort.abort(new Error('job cancelled'));
      return;
    case 'saved': {
      const s = current?.saves.get(m.seq);
      if (!s) return;
      current?.saves.delete(m.seq);
      if (m.error) s.reject(new Error(m.error));
      else s.resolve();
      return;
    }
    case 'answer': {
      const a = current?.answers.get(m.seq);
      if (!a) return;
      current?.answers.delete(m.seq);
      if (m.error !== undefined) a.reject(new Error(m.error));
      else a.resolve(m.value);
      return;
    }
    case 'close':
      void storage.close().finally(() => port.close());
      return;
  }
});

// The kinds' code loads with their first job (a kind's module is small; what is heavy, like a PDF's fonts, it
// loads itself when needed), so a thread is ready as soon as its connection is open.
post({ type: 'ready', threadId });
