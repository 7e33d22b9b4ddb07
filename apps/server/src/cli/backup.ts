import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../config.js';
import { checkBackupFile, fsyncPath, partialName, removeStalePartials } from './backup-file.js';

/** `phasewatch-2026-11-26T08-30-00Z.sqlite`: sorts by date, and no `:` (not allowed in Windows file names). */
export function backupFileName(now = new Date()): string {
  return `phasewatch-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z.sqlite`;
}

/**
 * Copies the SQLite database into `file` while the app keeps running, in bounded time whatever the
 * ingest rate: `VACUUM INTO` reads the whole database inside one read transaction, a snapshot of one
 * moment (WAL readers never block the writer, nor it them), and writes a compact, self-contained copy
 * in rollback-journal mode. The online backup API copied 100 pages a step and started over whenever
 * another connection committed — with the readings writer committing all the time, it never finished;
 * one step of all pages measured the same as this (1.2-3.4 s vs 1.3-2.5 s for 105 MB under ingest and
 * two CPU burners) but leaves a WAL-mode copy to convert.
 *
 * The copy is written under a hidden partial name beside `file`, checked (`checkBackupFile`), flushed
 * to disk and only then renamed into place: a killed or failed backup never leaves a file that looks
 * like one (the next run removes what a killed one left).
 */
export function backupSqlite(source: string, file: string): { file: string; bytes: number } {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  removeStalePartials(dir);
  const partial = partialName(file);
  rmSync(partial, { force: true });
  try {
    // Read-write like the app's connections (a read-only one could not open a WAL database whose
    // shared-memory file is missing); it only reads.
    const db = new SqliteDatabase(source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
    // SQLite does not sync what VACUUM INTO wrote: flushed before the rename makes it the backup.
    fsyncPath(partial);
    checkBackupFile(partial);
    renameSync(partial, file);
    fsyncPath(dir);
  } catch (err) {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
    throw err;
  }
  return { file, bytes: statSync(file).size };
}

/** `npm run backup [-- --out <file>]`: a dated copy of the SQLite database under BACKUP_DIR. */
function main(argv: string[]): number {
  // A placeholder secret: loading the configuration must not write a new jwt-secret into the data folder.
  const config = loadConfig({ ...process.env, JWT_SECRET: process.env.JWT_SECRET || 'not-used-by-backup' });
  if (config.databaseUrl) {
    process.stderr.write(
      [
        'DATABASE_URL points to PostgreSQL: back it up with PostgreSQL tools, while the app runs, e.g.',
        `  pg_dump --format=custom --file=phasewatch-$(date +%F).dump "${config.databaseUrl.replace(/:[^:@/]*@/, ':***@')}"`,
        'and restore into an empty database with pg_restore --no-owner --dbname=<url> <file>.',
        '',
      ].join('\n'),
    );
    return 2;
  }
  const outAt = argv.indexOf('--out');
  const file = outAt >= 0 && argv[outAt + 1] ? path.resolve(argv[outAt + 1] as string) : path.join(config.backupDir, backupFileName());
  const source = path.join(config.dataDir, 'phasewatch.sqlite');
  const started = Date.now();
  const { bytes } = backupSqlite(source, file);
  process.stdout.write(`Backed up ${source}\n      to ${file} (${(bytes / 1048576).toFixed(1)} MB, ${Date.now() - started} ms)\n`);
  process.stdout.write(`Keep ${path.join(config.dataDir, 'jwt-secret')} (or JWT_SECRET) with it: see "Backups" in the README.\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (err) {
    process.stderr.write(`Backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
