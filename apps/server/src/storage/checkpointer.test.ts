import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Checkpointer } from './checkpointer.js';
import { openSqliteFile } from './database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('background checkpointer', () => {
  it('copies committed WAL frames into the database file while the writer never checkpoints, and keeps every row', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-ckpt-'));
    dirs.push(dir);
    const file = path.join(dir, 'db.sqlite');
    const writer = openSqliteFile(file, { mmap: false });
    // The writer alone would never copy anything back: its automatic checkpoint is off here.
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (id integer PRIMARY KEY, data blob)');
    const before = statSync(file).size;
    const insert = writer.prepare('INSERT INTO t (data) VALUES (?)');
    writer.transaction(() => {
      for (let i = 0; i < 200; i++) insert.run(Buffer.alloc(16_384, i));
    })();
    expect(statSync(file).size).toBe(before);
    const checkpointer = new Checkpointer(file, 50);
    try {
      await expect.poll(() => statSync(file).size, { timeout: 15_000, interval: 50 }).toBeGreaterThan(200 * 16_384);
      // The file grows while the thread copies; it reports the checkpoint once done (a message later).
      await expect.poll(() => checkpointer.stats.checkpoints, { timeout: 5_000, interval: 20 }).toBeGreaterThan(0);
      expect(checkpointer.stats.errors).toBe(0);
      // More commits while it runs: copied too, and the writer goes on undisturbed.
      writer.transaction(() => {
        for (let i = 0; i < 100; i++) insert.run(Buffer.alloc(16_384, i));
      })();
      await expect.poll(() => statSync(file).size, { timeout: 15_000, interval: 50 }).toBeGreaterThan(300 * 16_384);
    } finally {
      await checkpointer.stop();
    }
    expect((writer.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(300);
    writer.close();
    const again = openSqliteFile(file);
    expect(again.prepare('SELECT count(*) AS n, sum(length(data)) AS b FROM t').get() as { n: number; b: number }).toEqual({
      n: 300,
      b: 300 * 16_384,
    });
    again.close();
  });

  it('stops cleanly when the file has no WAL yet', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-ckpt-'));
    dirs.push(dir);
    const file = path.join(dir, 'db.sqlite');
    const db = openSqliteFile(file);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const checkpointer = new Checkpointer(file, 20);
    await new Promise((r) => setTimeout(r, 200));
    await checkpointer.stop();
    expect(checkpointer.stats.errors).toBe(0);
  });
});
