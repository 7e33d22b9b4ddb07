import { copyFileSync, existsSync, linkSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../config.js';
import { BackupFileError, checkBackupFile, fsyncPath, partialName, removeStalePartials } from './backup-file.js';

/** The database is open in another process (the app, or a backup): nothing was changed. */
export class DatabaseInUseError extends Error {}

/** `phasewatch.sqlite.before-restore-2026-11-26T08-30-00Z`: where the replaced database is kept. */
export function asideName(target: string, now = new Date()): string {
  return `${target}.before-restore-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z`;
}

/**
 * Takes the current database for the restore: refuses when any other connection has it open (the app
 * holds three while it runs: requests, the readings writer, the checkpointer), else folds its WAL
 * into the file (leaving the database one self-contained file) and keeps it locked. Leaving WAL mode
 * needs the only connection to the file, so a refusal is the proof that someone uses it.
 */
function takeCurrent(target: string): SqliteDatabase.Database {
  const db = new SqliteDatabase(target, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    try {
      db.pragma('journal_mode = DELETE');
      // Held until the new file is in place: an app starting meanwhile waits instead of opening the old one.
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
        throw new DatabaseInUseError(`${target} is in use: stop the app (and any backup running) first`);
      }
      throw err;
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export interface Restored {
  target: string;
  /** Where the database it replaced is kept; null when there was none. */
  previous: string | null;
  users: number;
  devices: number;
}

/**
 * Restores a backup as the database of `dataDir`, with the app stopped: the file is checked first, copied
 * beside the target under a partial name, checked again, and renamed into place; the database it
 * replaces is kept under `asideName` (hard-linked before the atomic rename, so the data folder never lacks
 * a database). Throws `BackupFileError` or `DatabaseInUseError` before changing anything.
 */
export function restoreSqlite(backup: string, dataDir: string, now = new Date()): Restored {
  const target = path.join(dataDir, 'phasewatch.sqlite');
  if (path.resolve(backup) === path.resolve(target)) throw new BackupFileError(`${backup} is the database itself`);
  const found = checkBackupFile(backup);
  mkdirSync(dataDir, { recursive: true });
  removeStalePartials(dataDir);
  const current = existsSync(target) ? takeCurrent(target) : null;
  const partial = partialName(target);
  let previous: string | null = null;
  try {
    copyFileSync(backup, partial);
    fsyncPath(partial);
    checkBackupFile(partial);
    if (current) {
      previous = asideName(target, now);
      linkSync(target, previous);
    }
    renameSync(partial, target);
    // A shared-memory file of the old database would describe the wrong file.
    rmSync(`${target}-shm`, { force: true });
    fsyncPath(dataDir);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    current?.close();
  }
  return { target, previous, users: found.users, devices: found.devices };
}

/** `npm run restore -- <file>`: the backup becomes the database of DATA_DIR (the app stopped). */
function main(argv: string[]): number {
  // A placeholder secret: loading the configuration must not write a new jwt-secret into the data folder.
  const config = loadConfig({ ...process.env, JWT_SECRET: process.env.JWT_SECRET || 'not-used-by-restore' });
  if (config.databaseUrl) {
    process.stderr.write(
      'DATABASE_URL points to PostgreSQL: restore a pg_dump file with pg_restore --no-owner --dbname=<empty database url> <file>.\n',
    );
    return 2;
  }
  const file = argv.find((a) => !a.startsWith('-'));
  if (!file) {
    process.stderr.write('Usage: npm run restore -- <backup file>   (with the app stopped; DATA_DIR names the data folder)\n');
    return 2;
  }
  const r = restoreSqlite(path.resolve(file), config.dataDir);
  process.stdout.write(`Restored ${path.resolve(file)} (${r.users} users, ${r.devices} devices)\n      as ${r.target}\n`);
  if (r.previous) process.stdout.write(`The database it replaced is kept as ${r.previous}\n`);
  const secret = path.join(config.dataDir, 'jwt-secret');
  if (!process.env.JWT_SECRET && !existsSync(secret)) {
    process.stdout.write(`Put the jwt-secret kept with the backup at ${secret} (or set JWT_SECRET), or everyone signs in again.\n`);
  }
  process.stdout.write('Start the app again with npm start.\n');
  return 0;
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof BackupFileError || err instanceof DatabaseInUseError) {
      process.stderr.write(`Restore refused: ${message}\nNothing was changed.\n`);
      process.exit(1);
    }
    process.stderr.write(`Restore failed: ${message}\n`);
    process.exit(3);
  }
}
