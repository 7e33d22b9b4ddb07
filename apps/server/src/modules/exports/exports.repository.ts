import { isStorableId } from '@phasewatch/shared';
import type { Kysely } from 'kysely';
import type { Database, JobRow } from '../../storage/schema.js';

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
