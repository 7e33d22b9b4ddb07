import { closeSync, existsSync, fsyncSync, openSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { migrations } from '../storage/migrations/index.js';

/** A file that is not a complete Phasewatch database (the reason says why, for the terminal). */
export class BackupFileError extends Error {}

/** Tables every Phasewatch database has since its first migration. */
const REQUIRED_TABLES = ['kysely_migration', 'users', 'refresh_tokens', 'devices'];

/**
 * Checks that `file` is a whole Phasewatch database before anyone relies on it: readable as SQLite,
 * `quick_check` ok, the app's tables present with at least one migration recorded, none of them unknown
 * to this version. A copy interrupted midway (a `-journal` beside it) is refused outright: opened, it
 * rolls back to whatever the journal held — often nothing, with `quick_check` still ok.
 */
export function checkBackupFile(file: string): { migrations: string[]; users: number; devices: number } {
  if (!existsSync(file)) throw new BackupFileError(`${file} does not exist`);
  for (const suffix of ['-journal', '-wal']) {
    if (existsSync(file + suffix)) {
      throw new BackupFileError(`${file}${suffix} lies beside it: an interrupted copy or a database still in use, not a backup`);
    }
  }
  let db: SqliteDatabase.Database;
  try {
    db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupFileError(`${file} cannot be opened as SQLite: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    let check: unknown;
    try {
      check = db.pragma('quick_check', { simple: true });
    } catch (err) {
      throw new BackupFileError(`${file} is not a SQLite database: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (check !== 'ok') throw new BackupFileError(`${file} failed its check: ${String(check)}`);
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) throw new BackupFileError(`${file} is not a Phasewatch database (no ${missing.join(', ')} table)`);
    const done = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name);
    if (done.length === 0) throw new BackupFileError(`${file} records no migration: not a Phasewatch database`);
    const unknown = done.filter((name) => !(name in migrations));
    if (unknown.length > 0) {
      throw new BackupFileError(`${file} was written by a newer Phasewatch (migrations ${unknown.join(', ')}): update the app first`);
    }
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { migrations: done, users: count('users'), devices: count('devices') };
  } finally {
    db.close();
  }
}

/** Flushes a file (or a folder's entries, after a rename) to the disk. */
export function fsyncPath(p: string): void {
  const fd = openSync(p, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const PARTIAL = /^\.(.+)\.partial-(\d+)$/;

/**
 * The name a file is written under before it is complete: hidden, beside the target (the rename into
 * place stays on one file system), with the writer's pid, and not ending in `.sqlite`, so nothing
 * mistakes a killed copy for a backup.
 */
export function partialName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.partial-${process.pid}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what killed copies left in `dir` (partial files of processes that are gone, with their journals). */
export function removeStalePartials(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = PARTIAL.exec(name.replace(/-journal$/, ''));
    if (!m || Number(m[2]) === process.pid || alive(Number(m[2]))) continue;
    rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
