import { importMessage } from '@phasewatch/shared';
import type { JobKindContext } from '../../jobs/kinds.js';
import { type ImportBatch, type ImportSettings, type ImportStore, type ImportSummary, runImport } from './import-run.js';

/** What the main thread hands the `import` job kind (plain data: it crosses to a worker thread). */
export interface ImportKindInput {
  /** The uploaded file on this instance's disk (DATA_DIR/imports). */
  path: string;
  settings: ImportSettings;
}

/**
 * What the kind sends the main thread (`ctx.send`), one at a time, each answered once handled: a batch of
 * checked rows to write through the readings writer (the thread's connection is read-only), or the summary
 * so far to store for `GET /api/imports/{id}`.
 */
export type ImportKindMessage = { type: 'batch'; batch: ImportBatch } | { type: 'summary'; summary: ImportSummary };

/** The import's summary and the thread it ran on (never the main thread's 0; imports.threads.test.ts asserts it). */
export type ImportKindResult = ImportSummary & { threadId: number };

/** How often the summary so far goes to the main thread to be stored. */
const SUMMARY_EVERY_MS = 1_000;

/**
 * The `import` job kind (jobs/kinds.ts): the file is read, parsed and checked in the job thread, and the
 * times the device already has are looked up through the thread's own read-only connection (duplicates are
 * skipped, never overwritten); batches of new rows go to the main thread, which writes them through the
 * shared batch writer (late readings and whole hours roll up there, local days rebuilt) and answers when they
 * are committed, before the next chunk asks what the device has. A dry run sends no batch.
 */
export async function run(input: ImportKindInput, ctx: JobKindContext): Promise<ImportKindResult> {
  const reader = ctx.readingsRepo.reader;
  const store: ImportStore = {
    existing: async (deviceId, from, to) =>
      (await reader.arrays('SELECT ts FROM readings WHERE device_id = ? AND ts >= ? AND ts <= ?', [deviceId, from, to])).map((r) =>
        Number(r[0]),
      ),
    write: async (batch) => {
      // Handed over, not copied: runImport does not touch a batch once it is written.
      await ctx.send({ type: 'batch', batch } satisfies ImportKindMessage, [
        batch.ts.buffer as ArrayBuffer,
        ...batch.cols.map((c) => c.buffer as ArrayBuffer),
      ]);
    },
  };
  let sent = 0;
  try {
    const summary = await runImport(
      input.path,
      input.settings,
      store,
      async (summary, fraction) => {
        ctx.progress(fraction);
        const t = Date.now();
        // The last one is the job's result (the main thread stores it).
        if (fraction < 1 && t - sent >= SUMMARY_EVERY_MS) {
          sent = t;
          await ctx.send({ type: 'summary', summary } satisfies ImportKindMessage);
        }
      },
      ctx.signal,
    );
    return { ...summary, threadId: ctx.threadId };
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
    // Uploaded to another instance (or cleaned away): said in the summary rather than as a bare error.
    return {
      rows: 0,
      imported: 0,
      duplicates: 0,
      refused: [],
      refusedCount: 0,
      from: null,
      to: null,
      parameters: [],
      columns: [],
      timezone: input.settings.tz,
      localTimes: false,
      problem: { key: 'imports.problem.fileGone', message: importMessage('imports.problem.fileGone', {}) },
      threadId: ctx.threadId,
    };
  }
}
