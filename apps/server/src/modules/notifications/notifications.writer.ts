import { type Storage, sqliteKysely } from '../../storage/database.js';
import { NotificationsRepository } from './notifications.repository.js';

/*
 * The readings writer thread's side of the alarm store (SQLite; see notifications.store.ts): a
 * `WriterExtension` the thread loads by URL. It imports no readings code (and nothing heavy), so the thread
 * loads only the notifications repository.
 */

/** The writes (and the reads among them) of the rules and the dispatcher, in the order they are made. */
export const ALARM_STORE_METHODS = [
  'insertAlarm',
  'openAlarm',
  'clearAlarm',
  'reopenAlarm',
  'worsen',
  'recentlyEnded',
  'lastSent',
  'repeatEvent',
  'markSent',
  'recordQualityWeek',
] as const;
let writerRepo: NotificationsRepository | null = null;
const methods = new Set<string>(ALARM_STORE_METHODS);

/**
 * The writer thread's side (a `WriterExtension`): runs a store method on its SQLite connection (a Kysely
 * over it, made once, its statements prepared once: see `cachedStatements`).
 */
export async function onWriter(storage: Storage, method: string, args: unknown[]): Promise<unknown> {
  if (!storage.sqlite) throw new Error('alarm changes run on the writer thread only on SQLite');
  if (!methods.has(method)) throw new Error(`unknown alarm store method ${method}`);
  writerRepo ??= new NotificationsRepository(sqliteKysely(storage.sqlite));
  const fn = (writerRepo as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method] as (
    ...a: unknown[]
  ) => Promise<unknown>;
  return fn.apply(writerRepo, args);
}
