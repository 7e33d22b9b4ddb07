import { parentPort, workerData } from 'node:worker_threads';
import type { CounterRules } from '@phasewatch/shared';
import { openSqliteFile, type Storage } from '../../storage/database.js';
import { decodeFlush, ReadingsRepository } from './readings.repository.js';
import type { WriterOps, WriterReply, WriterRequest } from './readings.writer-thread.js';

/** The readings writer thread (see readings.writer-thread.ts): its own connection, the repository's SQLite writes. */
const { file, rules } = workerData as { file: string; rules: CounterRules };
const sqlite = openSqliteFile(file, { mmap: false });
const storage = {
  dialect: 'sqlite',
  location: file,
  pgPool: null,
  sqlite,
  db: null,
  close: async () => sqlite.close(),
} as unknown as Storage;
const repo = new ReadingsRepository(storage, { rules });

const port = parentPort;
if (!port) throw new Error('readings.writer.worker runs as a worker thread');

/** Runs one request; requests run strictly one after another (a rebuild reads, then writes). */
async function run({ id, op, args }: WriterRequest): Promise<void> {
  let reply: WriterReply;
  try {
    let value: unknown;
    if (op === 'write') await repo.writeColumnar(decodeFlush(...(args as WriterOps['write'])));
    else if (op === 'compactDue') value = await repo.compactDue(...(args as WriterOps['compactDue']));
    else if (op === 'statementCount') value = await repo.statementCount();
    else if (op === 'rebuildDays') await repo.rebuildDays(...(args as WriterOps['rebuildDays']));
    else if (op === 'deleteDevice') await repo.deleteDevice(...(args as WriterOps['deleteDevice']));
    else if (op === 'deleteRawBefore') await repo.deleteRawBefore(...(args as WriterOps['deleteRawBefore']));
    else throw new Error(`unknown writer operation ${String(op)}`);
    reply = { id, ok: true, value };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    reply = { id, ok: false, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  }
  port?.postMessage(reply);
}

let queue = Promise.resolve();
port.on('message', (req: WriterRequest) => {
  queue = queue.then(() => run(req));
});
