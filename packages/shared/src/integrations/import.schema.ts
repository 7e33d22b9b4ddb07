import { z } from 'zod';
import { PARAMETER_NAMES } from '../telemetry/parameters.js';

/**
 * History import (issue 31): `POST /api/imports` (multipart) queues a job reading a CSV file into one
 * device's readings, `GET /api/imports/{id}` answers its summary. A dry run reads the file the same way and
 * writes nothing.
 */
export const IMPORT_FORMATS = ['phasewatch', 'home-assistant', 'generic'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Units a mapped column may be in: power W or kW, energy Wh or kWh (stored as W and kWh). */
export const IMPORT_UNITS = ['W', 'kW', 'Wh', 'kWh'] as const;
export type ImportUnit = (typeof IMPORT_UNITS)[number];

/** The longest line read (bytes): a longer one is refused at upload (400), never held in memory. */
export const IMPORT_MAX_LINE_BYTES = 64 * 1024;
/** Refused rows listed by line in the summary (all are counted). */
export const IMPORT_REFUSED_LISTED = 100;

/**
 * The column mapping: for `generic`, the time column (its zone: `UTC`, an IANA zone, or left out for the
 * user's timezone) and a parameter per column; for `home-assistant`, optionally which catalogue parameter
 * each `statistic_id` fills (`column` is the statistic id).
 */
export const importMappingSchema = z.strictObject({
  time: z
    .strictObject({
      column: z.string().min(1).max(200),
      zone: z.string().min(1).max(64).optional(),
    })
    .optional(),
  columns: z
    .array(
      z.strictObject({
        column: z.string().min(1).max(200),
        parameter: z.enum(PARAMETER_NAMES as [string, ...string[]]),
        unit: z.enum(IMPORT_UNITS).optional(),
      }),
    )
    .min(1)
    .max(64),
});
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** The multipart fields besides `file` (text values, as a form sends them). */
export const importFieldsSchema = z.strictObject({
  deviceId: z.coerce.number().int().positive().max(2_147_483_647),
  format: z.enum(IMPORT_FORMATS),
  dryRun: z.enum(['true', 'false']).transform((v) => v === 'true'),
  mapping: z
    .string()
    .max(20_000)
    .transform((text, ctx) => {
      try {
        const parsed = importMappingSchema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
        for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      }
      return z.NEVER;
    })
    .optional(),
});

export const IMPORT_REFUSAL_KEYS = [
  'imports.refused.time',
  'imports.refused.dstGap',
  'imports.refused.value',
  'imports.refused.columns',
  'imports.refused.repeated',
  'imports.refused.retention',
  'imports.refused.future',
  'imports.refused.empty',
  'imports.refused.tooManyRows',
  'imports.refused.statistic',
] as const;
export type ImportRefusalKey = (typeof IMPORT_REFUSAL_KEYS)[number];

export const IMPORT_PROBLEM_KEYS = [
  'imports.problem.empty',
  'imports.problem.noTimeColumn',
  'imports.problem.noParameters',
  'imports.problem.notHomeAssistant',
  'imports.problem.mappingColumn',
  'imports.problem.needsMapping',
  'imports.problem.zone',
  'imports.problem.fileGone',
] as const;
export type ImportProblemKey = (typeof IMPORT_PROBLEM_KEYS)[number];

/** English texts of refusals and problems (`{{name}}` filled from the entry's values); the web translates the keys. */
export const IMPORT_MESSAGES: Record<ImportRefusalKey | ImportProblemKey, string> = {
  'imports.refused.time': 'the time "{{value}}" cannot be read',
  'imports.refused.dstGap': 'the local time {{value}} does not exist (the clock skipped it)',
  'imports.refused.value': 'the value "{{value}}" of {{column}} is not a number {{parameter}} can take',
  'imports.refused.columns': 'the row has {{value}} fields, the header {{column}}',
  'imports.refused.repeated': 'the same time as an earlier row of the file',
  'imports.refused.retention': 'older than the raw retention',
  'imports.refused.future': 'in the future',
  'imports.refused.empty': 'no value to import',
  'imports.refused.tooManyRows': 'past the most rows one import reads',
  'imports.refused.statistic': 'the statistic {{column}} fills no parameter: map it to one',
  'imports.problem.empty': 'the file has no header line',
  'imports.problem.noTimeColumn': 'no time column: the first column must be "time"',
  'imports.problem.noParameters': 'no column names a Phasewatch parameter as "<parameter> [<unit>]"',
  'imports.problem.notHomeAssistant': 'a Home Assistant statistics export has the columns statistic_id, start and state or sum',
  'imports.problem.mappingColumn': 'the mapping names a column the file does not have: {{column}}',
  'imports.problem.needsMapping': 'a generic CSV needs a mapping: the time column and a parameter per column',
  'imports.problem.zone': 'the zone {{value}} is not known',
  'imports.problem.fileGone': 'the uploaded file is no longer there; upload it again',
};

/** 400/413 answers of the upload itself (`errors.*` keys, the shape every route answers). */
export const IMPORT_ERROR_MESSAGES = {
  'errors.importNoFile': 'the form needs a file',
  'errors.importTooLarge': 'the file is larger than an import takes',
  'errors.importLineTooLong': 'a line of the file is longer than 64 KiB',
  'errors.importTooManyRows': 'the file has more rows than an import takes',
  'errors.importCompressed': 'a zip archive is not read: unpack it and upload the CSV file',
  'errors.importNotText': 'the file is not a text (CSV) file',
  'errors.importNotFound': 'Import not found',
  'errors.importMultipart': 'the request must be multipart/form-data with a file',
} as const;

export const importRefusalSchema = z.object({
  line: z.number().int(),
  reason: z.string(),
  key: z.enum(IMPORT_REFUSAL_KEYS),
  value: z.string().optional(),
  column: z.string().optional(),
});
export type ImportRefusal = z.infer<typeof importRefusalSchema>;

export const importProblemSchema = z.object({
  key: z.enum(IMPORT_PROBLEM_KEYS),
  message: z.string(),
  value: z.string().optional(),
  column: z.string().optional(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

export const importIdParams = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: 'must be an import id (UUID)' }),
});
export const importCreatedSchema = z.object({ id: z.string() });

/** `GET /api/imports/{id}`. */
export const importSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  dryRun: z.boolean(),
  format: z.enum(IMPORT_FORMATS),
  deviceId: z.number().int(),
  fileName: z.string(),
  /** Share of the file read (0…1). */
  progress: z.number(),
  /** Data rows read (header left out). */
  rows: z.number().int(),
  /** Readings written (a dry run: that would be). */
  imported: z.number().int(),
  /** Rows whose time the device already has a reading at: skipped, never overwritten. */
  duplicates: z.number().int(),
  refused: z.array(importRefusalSchema),
  refusedCount: z.number().int(),
  /** First and last time read (ISO, UTC). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  parameters: z.array(z.string()),
  /** The header's columns as found. */
  columns: z.array(z.string()),
  /** The zone times without one are read in (the user's timezone unless the mapping names one). */
  timezone: z.string(),
  /** Whether the file had times without a zone. */
  localTimes: z.boolean(),
  /** Why the file cannot be read (the import stops; nothing is written). */
  problem: importProblemSchema.nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importSchema>;

/** Fills `{{name}}` placeholders of an import message. */
export function importMessage(
  key: ImportRefusalKey | ImportProblemKey,
  values: { value?: string; column?: string; parameter?: string },
): string {
  return IMPORT_MESSAGES[key].replace(/\{\{(\w+)\}\}/g, (_, k: string) => (values as Record<string, string | undefined>)[k] ?? '');
}
