import { z } from 'zod';

/**
 * `GET /api/devices/{id}/power-quality?week=YYYY-MM-DD`: the Monday starting the local week (the device's
 * location timezone, else the user's). The answer is `PqReport` (power-quality.ts), written once for the
 * server's response schema and the web screen. The schema checks the form; that the date is a Monday is
 * checked after the device is found to be the user's (another user's device answers 404 whatever the week).
 */
export const powerQualityQuerySchema = z.strictObject({
  week: z.string({ error: 'validation.required' }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.date' }),
});
export type PowerQualityQuery = z.infer<typeof powerQualityQuerySchema>;

const verdict = z.enum(['pass', 'fail', 'not-assessable']);
const phase = z.union([z.literal(1), z.literal(2), z.literal(3)]);
const volts = z.number().nullable();

export const powerQualityResponseSchema = z.object({
  device: z.object({ id: z.number(), name: z.string(), location: z.string().nullable() }),
  from: z.string(),
  to: z.string(),
  fromMs: z.number(),
  toMs: z.number(),
  timezone: z.string(),
  intervalSeconds: z.number(),
  verdict,
  bins: z.number(),
  phases: z.array(
    z.object({
      phase,
      n: z.number(),
      n1: z.number(),
      n2: z.number(),
      invalid: z.number(),
      flagged: z.number(),
      min: volts,
      max: volts,
      p05: volts,
      p95: volts,
      n1Share: z.number().nullable(),
      verdict,
    }),
  ),
  events: z.array(
    z.object({
      kind: z.enum(['dip', 'swell', 'interruption']),
      phase,
      start: z.string(),
      startMs: z.number(),
      durationSeconds: z.number(),
      extreme: z.number(),
      length: z.enum(['short', 'long']).optional(),
    }),
  ),
  overvoltage: z.array(z.object({ start: z.string(), startMs: z.number(), phase, value: z.number() })),
  overvoltageDays: z.array(z.object({ date: z.string(), count: z.number() })),
  frequency: z
    .object({ readings: z.number(), withinShare: z.number(), outside47to52: z.number(), min: z.number(), max: z.number() })
    .nullable(),
  trend: z.object({
    start: z.string(),
    startMs: z.number(),
    stepSeconds: z.number(),
    phases: z.array(z.object({ phase, values: z.array(z.number().nullable()), flagged: z.array(z.number()) })),
  }),
});
export type PowerQualityResponse = z.infer<typeof powerQualityResponseSchema>;
