import { type WriterThread, writerExtensionUrl } from '../readings/index.js';
import type { NotificationsRepository } from './notifications.repository.js';
import { ALARM_STORE_METHODS } from './notifications.writer.js';

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
  // The thread's side of the store (notifications.writer.ts), as the writer thread loads it.
  const onWriter = writerExtensionUrl(import.meta.url, 'notifications.writer');
  const store: Partial<Record<AlarmStoreMethod, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const method of ALARM_STORE_METHODS) store[method] = (...args) => thread.call('extension', [onWriter, method, args]);
  return store as unknown as AlarmStore;
}
