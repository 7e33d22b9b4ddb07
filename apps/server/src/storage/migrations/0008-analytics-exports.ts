import type { Kysely } from 'kysely';
import { bigint, withId } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * Background jobs, export files and saved comparisons (issue 20).
 *
 * `jobs`: the stored queue of `jobs/job-queue.ts`. A job is claimed by one instance with a conditional
 * update (queued → running, or a running one whose lease ran out because its instance died), so a job
 * runs once even with several instances on one PostgreSQL, and a queued job survives a restart.
 * `export_chunks`: a finished export's file in pieces of up to 1 MB, in the database rather than on one
 * instance's disk, so any instance can send it; deleted with the job when it expires. Keyed by the run
 * (`attempt`) that wrote them: a run that lost its claim cannot mix its pieces into the next run's file.
 * `comparisons`: a user's saved comparisons, the series as JSON (a value object, never queried by field).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('queue', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('progress', real, (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('lease_until', big)
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('started_at', big)
    .addColumn('finished_at', big)
    .addColumn('expires_at', big)
    .addColumn('error', 'text')
    .addColumn('result', 'text')
    .execute();
  await db.schema.createIndex('jobs_queue_status').on('jobs').columns(['queue', 'status', 'created_at']).execute();
  await db.schema.createIndex('jobs_user').on('jobs').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('export_chunks')
    .addColumn('job_id', 'varchar(36)', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('export_chunks_pk', ['job_id', 'attempt', 'seq'])
    .execute();

  await withId(db.schema.createTable('comparisons'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comparisons_user').on('comparisons').column('user_id').execute();
}
