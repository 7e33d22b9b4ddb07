import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../config.js';

/** `phasewatch-2026-11-26T08-30-00Z.sqlite`: sorts by date, and no `:` (not allowed in Windows file names). */
export function backupFileName(now = new Date()): string {
  return `phasewatch-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z.sqlite`;
}

/**
 * Copies the SQLite database into `file` with SQLite's online backup API while the app keeps running:
 * the copy is one consistent moment of the database (WAL included); writers are not blocked for long
 * (pages are copied in steps, restarting if a writer changed the source). Checks the copy before
 * answering its size.
 */
export async function backupSqlite(source: string, file: string): Promise<{ file: string; bytes: number }> {
  mkdirSync(path.dirname(file), { recursive: true });
  // Read-write like the app's connections (a read-only one could not open a WAL database whose shared-memory
  // file is missing); it only reads.
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(file);
  } finally {
    db.close();
  }
  // One self-contained file (the copy inherits WAL mode from the source, which would leave -wal and
  // -shm files beside it); the app turns WAL on again when it opens a restored copy.
  const copy = new SqliteDatabase(file);
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy failed its check: ${String(check)}`);
  } finally {
    copy.close();
  }
  return { file, bytes: statSync(file).size };
}

/** `npm run backup [-- --out <file>]`: a dated copy of the SQLite database under BACKUP_DIR. */
async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
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
  const { bytes } = await backupSqlite(source, file);
  process.stdout.write(`Backed up ${source}\n      to ${file} (${(bytes / 1048576).toFixed(1)} MB, ${Date.now() - started} ms)\n`);
  process.stdout.write(`Keep ${path.join(config.dataDir, 'jwt-secret')} (or JWT_SECRET) with it: see "Backups" in the README.\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`Backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
