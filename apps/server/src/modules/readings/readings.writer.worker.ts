import { parentPort, workerData } from 'node:worker_threads';
import type { CounterRules } from '@phasewatch/shared';
import pg from 'pg';
import { openSqliteFile, type Storage } from '../../storage/database.js';
import { decodeFlush } from './readings.batches.js';
import { ReadingsRepository } from './readings.repository.js';
import type { WriterExtension, WriterOps, WriterReply, WriterRequest, WriterTarget } from './readings.writer-thread.js';

/**
 * The readings writer thread (see readings.writer-thread.ts): its own connection (SQLite) or pool
 * (PostgreSQL; importing storage/database.js sets the same type parsers as the main thread's), the
 * repository's writes.
 */
const { target, rules } = workerData as { target: WriterTarget; rules: CounterRules };

function openTarget(): Storage {
  if (target.dialect === 'sqlite') {
    const sqlite = openSqliteFile(target.file, { mmap: false });
    return {
      dialect: 'sqlite',
      location: target.file,
      pgPool: null,
      sqlite,
      db: null,
      close: async () => sqlite.close(),
    } as unknown as Storage;
  }
  // Named for operators (pg_stat_activity); a name in the URL wins.
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize, application_name: 'phasewatch-writer' });
  // An idle client that errors (server restart) must not end the thread; the next write reconnects.
  pool.on('error', () => {});
  return {
    dialect: 'postgres',
    location: 'writer thread',
    pgPool: pool,
    sqlite: null,
    db: null,
    close: () => pool.end(),
  } as unknown as Storage;
}

const storage = openTarget();
const repo = new ReadingsRepository(storage, { rules });

/** The features' writer extensions by URL, each imported once (see `WriterExtension`). */
const extensions = new Map<string, Promise<WriterExtension>>();
function extension(url: string): Promise<WriterExtension> {
  let loaded = extensions.get(url);
  if (!loaded) {
    loaded = import(url) as Promise<WriterExtension>;
    extensions.set(url, loaded);
  }
  return loaded;
}

const port = parentPort;
if (!port) throw new Error('readings.writer.worker runs as a worker thread');

async function perform({ op, args }: WriterRequest): Promise<unknown> {
  switch (op) {
    case 'write':
      return repo.writeColumnar(decodeFlush(...(args as WriterOps['write'])));
    case 'compactDue':
      return repo.compactDue(...(args as WriterOps['compactDue']));
    case 'statementCount':
      return repo.statementCount();
    case 'recordStatuses':
      return repo.recordStatuses(...(args as WriterOps['recordStatuses']));
    case 'backfillPq':
      return repo.backfillPq(...(args as WriterOps['backfillPq']));
    case 'rebuildDaysStep':
      return repo.rebuildDaysStep(...(args as WriterOps['rebuildDaysStep']));
    case 'deleteDevice':
      return repo.deleteDevice(...(args as WriterOps['deleteDevice']));
    case 'deleteRawBefore':
      return repo.deleteRawBefore(...(args as WriterOps['deleteRawBefore']));
    case 'extension': {
      const [module, method, rest] = args as WriterOps['extension'];
      return (await extension(module)).onWriter(storage, method, rest);
    }
    case 'close':
      return storage.close();
    default:
      throw new Error(`unknown writer operation ${String(op)}`);
  }
}

async function run(req: WriterRequest): Promise<void> {
  let reply: WriterReply;
  try {
    const value = await perform(req);
    reply = { id: req.id, ok: true, ...(value === undefined ? {} : { value }) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    reply = { id: req.id, ok: false, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  }
  port?.postMessage(reply);
}

// SQLite: one request after another (one connection; a rebuild reads, then writes). PostgreSQL: each
// at once on the pool (the caller bounds the writes; row locks order them per device); `close` waits
// for everything before it.
let queue = Promise.resolve();
const running = new Set<Promise<void>>();
port.on('message', (req: WriterRequest) => {
  if (target.dialect === 'sqlite') {
    queue = queue.then(() => run(req));
    return;
  }
  if (req.op === 'close') {
    void Promise.allSettled([...running]).then(() => run(req));
    return;
  }
  const p = run(req).finally(() => running.delete(p));
  running.add(p);
});
