import { Kysely, SqliteDialect } from 'kysely';
import type { Storage } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import type { WriterThread } from '../readings/readings.writer-thread.js';
import { NotificationsRepository } from './notifications.repository.js';

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
] as const;
export type AlarmStoreMethod = (typeof ALARM_STORE_METHODS)[number];
/** Where alarm changes are stored: the repository itself, or (SQLite) the readings writer thread. */
export type AlarmStore = Pick<NotificationsRepository, AlarmStoreMethod>;

/**
 * SQLite: alarm changes are written on the readings writer thread, on its connection, between its
 * flushes. On the app's connection a write waits for the write lock whenever the writer thread holds it,
 * and better-sqlite3 waits synchronously (its busy handler sleeps on the calling thread): each alarm change
 * during a batch import held the event loop for milliseconds, and batch ingest with a sag every 2,000
 * readings ran at half speed. On a thread of their own the writes waited instead, and during back-to-back
 * flushes SQLite's busy handler starved them past its timeout (alarm changes were lost). On the writer's
 * thread they queue behind the flushes and never wait for a lock. PostgreSQL: the repository (its writes
 * do not hold the event loop).
 */
export function alarmStore(repo: NotificationsRepository, thread: WriterThread | null): AlarmStore {
  if (!thread) return repo;
  const store: Partial<Record<AlarmStoreMethod, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const method of ALARM_STORE_METHODS) store[method] = (...args) => thread.call('alarm', [method, args]);
  return store as unknown as AlarmStore;
}

let writerRepo: NotificationsRepository | null = null;
const methods = new Set<string>(ALARM_STORE_METHODS);

/** The writer thread's side: runs a store method on its SQLite connection (a Kysely over it, made once). */
export async function alarmOnWriter(storage: Storage, method: string, args: unknown[]): Promise<unknown> {
  if (!storage.sqlite) throw new Error('alarm changes run on the writer thread only on SQLite');
  if (!methods.has(method)) throw new Error(`unknown alarm store method ${method}`);
  writerRepo ??= new NotificationsRepository(new Kysely<Database>({ dialect: new SqliteDialect({ database: storage.sqlite }) }));
  const fn = (writerRepo as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method] as (
    ...a: unknown[]
  ) => Promise<unknown>;
  return fn.apply(writerRepo, args);
}
