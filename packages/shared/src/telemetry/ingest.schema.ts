import { z } from 'zod';

/** Most readings one ingest request (or MQTT message) may carry. */
export const MAX_INGEST_BATCH = 5000;
/** Readings stamped further ahead of the server clock than this are rejected (device clock wrong). */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

/**
 * One reading: `ts` ISO-8601 with `Z` or an offset, `values` parameter → number. Parameter names and
 * the time window are checked by the server (they depend on the catalogue and the clock).
 */
export const ingestReadingSchema = z.strictObject({
  ts: z.string({ error: 'validation.dateTime' }).min(1, { error: 'validation.dateTime' }).max(40, { error: 'validation.dateTime' }),
  values: z.record(z.string(), z.number({ error: 'validation.number' })),
});
export type IngestReading = z.infer<typeof ingestReadingSchema>;

/** `POST /api/ingest` (header `X-Device-Key`) and the MQTT payload (which may add the key as `key`). */
export const ingestRequestSchema = z.strictObject({
  readings: z
    .array(ingestReadingSchema)
    .min(1, { error: 'validation.required' })
    .max(MAX_INGEST_BATCH, { error: `at most ${MAX_INGEST_BATCH} readings per request` }),
});
export type IngestRequest = z.infer<typeof ingestRequestSchema>;

export const ingestResponseSchema = z.object({ accepted: z.number().int() });
export type IngestResponse = z.infer<typeof ingestResponseSchema>;

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Epoch ms of an ISO-8601 timestamp that names its zone (`Z` or an offset); null otherwise. */
export function parseIsoTimestamp(s: string): number | null {
  if (!ISO_WITH_ZONE.test(s)) return null;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : null;
}
