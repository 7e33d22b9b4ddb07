import { Writable } from 'node:stream';
import { isStorableId } from '@phasewatch/shared';
import type { Kysely } from 'kysely';
import type { Database, JobRow } from '../../storage/schema.js';

/** Bytes per stored piece of a file: big enough for few rows, small enough to hold one in memory. */
export const CHUNK_BYTES = 1 << 20;

export const EXPORTS_QUEUE = 'exports';

/** The only code touching export rows (jobs of the `exports` queue) and their files' pieces. */
export class ExportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listForUser(userId: number, limit: number): Promise<JobRow[]> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('queue', '=', EXPORTS_QUEUE)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  findForUser(userId: number, id: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('queue', '=', EXPORTS_QUEUE)
      .executeTakeFirst();
  }

  async saveChunk(jobId: string, attempt: number, seq: number, data: Uint8Array): Promise<void> {
    await this.db.insertInto('export_chunks').values({ job_id: jobId, attempt, seq, data }).execute();
  }

  async readChunk(jobId: string, attempt: number, seq: number): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('export_chunks')
      .select('data')
      .where('job_id', '=', jobId)
      .where('attempt', '=', attempt)
      .where('seq', '=', seq)
      .executeTakeFirst();
    return row?.data;
  }

  /** Every piece of a job's file (a run interrupted, failed or handed back). */
  async deleteChunks(jobId: string): Promise<void> {
    await this.db.deleteFrom('export_chunks').where('job_id', '=', jobId).execute();
  }

  /** The owner's timezone and language (a PDF's texts), or undefined for no such user. */
  userSettings(userId: number): Promise<{ timezone: string; language: string } | undefined> {
    if (!isStorableId(userId)) return Promise.resolve(undefined);
    return this.db.selectFrom('users').select(['timezone', 'language']).where('id', '=', userId).executeTakeFirst();
  }
}

/**
 * Where a file's bytes go while it is written: pieces of `CHUNK_BYTES` stored one after the other. One
 * store is under way while the next piece fills (the writer waits only when a second one is full), so
 * memory holds at most two pieces whatever the file's size.
 */
export class ChunkSink extends Writable {
  private parts: Buffer[] = [];
  private pending = 0;
  private seq = 0;
  private storing: Promise<void> = Promise.resolve();
  /** Bytes written so far. */
  size = 0;

  constructor(private readonly save: (seq: number, data: Buffer) => Promise<void>) {
    super({ highWaterMark: CHUNK_BYTES });
  }

  /** Pieces stored so far. */
  get chunks(): number {
    return this.seq;
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.parts.push(buf);
    this.pending += buf.length;
    this.size += buf.length;
    if (this.pending < CHUNK_BYTES) {
      cb();
      return;
    }
    // Wait for the store before this one, then hand this piece over without waiting for it.
    this.storing.then(() => {
      this.storing = this.store();
      // Its failure is reported by the next write or the end.
      this.storing.catch(() => {});
      cb();
    }, cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.storing.then(() => this.store()).then(() => cb(), cb);
  }

  private async store(): Promise<void> {
    if (this.pending === 0) return;
    const data = Buffer.concat(this.parts, this.pending);
    this.parts = [];
    this.pending = 0;
    await this.save(this.seq++, data);
  }
}
