import type { JobKindContext } from '../../jobs/kinds.js';
import { DevicesRepository } from '../devices/index.js';
import type { ExportResult, ReportKindInput } from '../exports/index.js';
import { LocationsRepository } from '../locations/index.js';
import { powerQualityPdfJob } from './power-quality.job.js';
import type { PowerQualitySource } from './power-quality.service.js';

/** What the main thread hands the `power-quality-pdf` job kind (plain data: it crosses to a worker thread): a report's input, as the exports queue it. */
export type PowerQualityKindInput = ReportKindInput;

/**
 * The `power-quality-pdf` job kind (jobs/kinds.ts): the week's raw readings are read through the job thread's
 * own read-only connection, the report computed and the PDF rendered into the job's sink there — never on the
 * main thread (power-quality.test.ts asserts the thread).
 */
export async function run(input: PowerQualityKindInput, ctx: JobKindContext): Promise<ExportResult> {
  const db = ctx.storage.db;
  const src: PowerQualitySource = {
    db,
    devices: new DevicesRepository(db, ctx.storage.dialect),
    locations: new LocationsRepository(db),
    readings: ctx.readingsRepo,
  };
  const sink = ctx.sink();
  await powerQualityPdfJob(src, () => input.now).render(
    { userId: input.userId, deviceId: input.deviceId, week: input.week, language: input.language },
    sink,
    { signal: ctx.signal, progress: ctx.progress },
  );
  ctx.progress(1);
  return { attempt: input.attempt, chunks: sink.chunks, size: sink.size, parameters: [], threadId: ctx.threadId };
}
