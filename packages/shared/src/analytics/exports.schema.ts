import { z } from 'zod';
import { LANGUAGES, type Language } from '../constants.js';
import { isMonday } from '../power-quality/power-quality.js';
import { PARAMETER_NAMES } from '../telemetry/parameters.js';
import { READING_INTERVALS, type ReadingInterval } from '../telemetry/readings.schema.js';

/**
 * Exports (spec sections 2, 4 and 8): a request starts a background job and answers at once; the file is
 * downloaded later with the blob POST of the spec. Written once for the server's validation and the dialog.
 */

export const EXPORT_FORMATS = ['csv', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

const DAY = 86_400_000;

/**
 * Longest range an export may cover, per file type and interval; longer answers 400 "Data range is too
 * long.". CSV: measured by `npm run bench -- export` (a year of 1-minute readings of 10 parameters,
 * 525,600 rows, takes seconds and flat memory), so a year of raw rows and a decade of buckets. PDF: the
 * table is paged on paper, so ranges stay within ~3,000 rows (about 60 pages) at one reading a minute.
 */
export const EXPORT_MAX_RANGE_MS: Record<ExportFormat, Record<ReadingInterval, number>> = {
  csv: { raw: 366 * DAY, '15m': 5 * 366 * DAY, '30m': 5 * 366 * DAY, '1h': 10 * 366 * DAY, '24h': 20 * 366 * DAY },
  pdf: { raw: 2 * DAY, '15m': 31 * DAY, '30m': 62 * DAY, '1h': 124 * DAY, '24h': 8 * 366 * DAY },
};

/** How long a finished export can be downloaded again (its file is deleted afterwards). */
export const EXPORT_RETENTION_MS = 24 * 3_600_000;
/** Exports a user sees in the list of recent ones. */
export const EXPORT_LIST_LIMIT = 20;
export const EXPORT_FILE_NAME_MAX = 100;

/** Characters a file name may not hold: path separators and what Windows refuses in names. */
const FORBIDDEN_FILE_CHARS = /[/\\:*?"<>|]/;

/** True when the text holds no C0/C1 control character or DEL. */
function noControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false;
  }
  return true;
}

/**
 * A file name without its extension (`.csv` / `.pdf` typed by the user is dropped): trimmed, 1–100
 * characters, no path separators, no control characters, not only dots. Refused rather than silently
 * changed, so the user sees the name the file will have.
 */
export const exportFileNameSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .transform((s) => s.replace(/\.(csv|pdf)$/i, '').trim())
  .pipe(
    z
      .string()
      .min(1, { error: 'validation.required' })
      .max(EXPORT_FILE_NAME_MAX, { error: 'validation.tooLong' })
      .refine(noControl, { error: 'validation.controlCharacters' })
      .refine((s) => !FORBIDDEN_FILE_CHARS.test(s), { error: 'validation.fileName' })
      .refine((s) => !/^\.+$/.test(s), { error: 'validation.fileName' }),
  );

/** An instant of a range: ISO-8601 with a zone or epoch ms; missing is "a date range is required". */
const rangeInstant = z
  .string({ error: (iss) => (iss.input === undefined ? 'validation.dateRange' : 'validation.dateTime') })
  .trim()
  .transform((s, ctx) => {
    let ms = Number.NaN;
    if (/^\d{10,14}$/.test(s)) ms = Number(s);
    else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s)) ms = Date.parse(s);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: s === '' ? 'validation.dateRange' : 'validation.dateTime' });
      return z.NEVER;
    }
    return ms;
  });

/** Reports an export can be instead of a data export (power-quality: the EN 50160 week of a device, PDF only). */
export const EXPORT_REPORTS = ['power-quality'] as const;

/**
 * `POST /api/exports`: what to export; `[from, to)` as ISO instants. With `report: 'power-quality'` the
 * export is that report's PDF of the local week starting on `week` (a Monday): `from`, `to`, `interval` and
 * `parameters` are not needed, the file name defaults to `power-quality-<week>`.
 */
export const exportRequestSchema = z
  .strictObject({
    deviceId: z
      .number({ error: 'validation.id' })
      .int({ error: 'validation.id' })
      .min(1, { error: 'validation.id' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'validation.id' }),
    /** Catalogue names; may be empty when `allParameters` is set. */
    parameters: z
      .array(z.string().refine((p) => PARAMETER_NAMES.includes(p), { error: 'validation.parameter' }))
      .max(PARAMETER_NAMES.length, {
        error: 'validation.tooLong',
      })
      .optional(),
    /** Every parameter the device sent in the range. */
    allParameters: z.boolean().optional(),
    from: rangeInstant.optional(),
    to: rangeInstant.optional(),
    interval: z.enum(READING_INTERVALS, { error: 'must be one of raw, 15m, 30m, 1h, 24h' }).optional(),
    format: z.enum(EXPORT_FORMATS, { error: 'validation.fileType' }),
    fileName: exportFileNameSchema.optional(),
    /** Language of the PDF's texts; the profile's language when not given. */
    language: z.enum(LANGUAGES).optional(),
    /** A report instead of a data export. */
    report: z.enum(EXPORT_REPORTS, { error: 'must be power-quality' }).optional(),
    /** The power-quality report's week: its Monday `YYYY-MM-DD` (local to the device). */
    week: z.string().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.report === 'power-quality') {
      if (r.format !== 'pdf') ctx.addIssue({ code: 'custom', message: 'quality.errors.pdfOnly', path: ['format'] });
      if (r.week === undefined) ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['week'] });
      else if (!isMonday(r.week)) ctx.addIssue({ code: 'custom', message: 'quality.errors.notMonday', path: ['week'] });
      return;
    }
    if (r.week !== undefined) ctx.addIssue({ code: 'custom', message: 'quality.errors.weekOnlyForReport', path: ['week'] });
    if (r.fileName === undefined) ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['fileName'] });
    if (r.interval === undefined) ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['interval'] });
    if (!r.allParameters && !r.parameters?.length) ctx.addIssue({ code: 'custom', message: 'validation.parameters', path: ['parameters'] });
    if (r.from === undefined) ctx.addIssue({ code: 'custom', message: 'validation.dateRange', path: ['from'] });
    if (r.to === undefined) ctx.addIssue({ code: 'custom', message: 'validation.dateRange', path: ['to'] });
    if (r.from === undefined || r.to === undefined || r.interval === undefined) return;
    if (r.from >= r.to) ctx.addIssue({ code: 'custom', message: 'validation.dateOrder', path: ['to'] });
    else if (r.to - r.from > EXPORT_MAX_RANGE_MS[r.format][r.interval])
      ctx.addIssue({ code: 'custom', message: 'validation.rangeTooLong', path: ['to'] });
  })
  .transform((r, ctx): DataExportRequest | PowerQualityExportRequest => {
    const language = r.language === undefined ? {} : { language: r.language };
    if (r.report === 'power-quality' && r.week !== undefined)
      return {
        report: 'power-quality',
        deviceId: r.deviceId,
        format: 'pdf',
        week: r.week,
        fileName: r.fileName ?? `power-quality-${r.week}`,
        ...language,
      };
    if (r.from === undefined || r.to === undefined || r.interval === undefined || r.fileName === undefined) {
      ctx.addIssue({ code: 'custom', message: 'validation.required' });
      return z.NEVER;
    }
    return {
      deviceId: r.deviceId,
      parameters: r.parameters ?? [],
      ...(r.allParameters === undefined ? {} : { allParameters: r.allParameters }),
      from: r.from,
      to: r.to,
      interval: r.interval,
      format: r.format,
      fileName: r.fileName,
      ...language,
    };
  });
export type ExportRequest = z.input<typeof exportRequestSchema>;

/** A data export as the server takes it (checked). */
export interface DataExportRequest {
  report?: undefined;
  deviceId: number;
  parameters: string[];
  allParameters?: boolean;
  from: number;
  to: number;
  interval: ReadingInterval;
  format: ExportFormat;
  fileName: string;
  language?: Language;
}

/** The power-quality report's PDF as the server takes it (checked). */
export interface PowerQualityExportRequest {
  report: 'power-quality';
  deviceId: number;
  format: 'pdf';
  week: string;
  fileName: string;
  language?: Language;
}
export type ExportRequestParsed = z.output<typeof exportRequestSchema>;

/** `:id` of an export: a UUID (the hub's `exportReady` names it as text). */
export const exportIdParams = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: 'must be an export id (UUID)' }),
});

/** An export job as the API answers it. Dates are UTC `YYYY-MM-DD HH:mm:ss`; `from`/`to` epoch ms. */
export const exportSchema = z.object({
  id: z.string(),
  status: z.enum(EXPORT_STATUSES),
  /** 0…1 while running; 1 when done. */
  progress: z.number(),
  fileName: z.string(),
  format: z.enum(EXPORT_FORMATS),
  deviceId: z.number(),
  deviceName: z.string(),
  parameters: z.array(z.string()),
  allParameters: z.boolean(),
  interval: z.enum(READING_INTERVALS),
  from: z.number(),
  to: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the file is deleted (done exports). */
  expiresAt: z.string().nullable(),
  /** Bytes of the file (done exports). */
  size: z.number().nullable(),
  /** Why it failed (failed exports). */
  error: z.string().nullable(),
  /** Where the file is downloaded from: POST, authenticated. */
  downloadUrl: z.string(),
});
export type ExportJob = z.infer<typeof exportSchema>;

/** `202` of `POST /api/exports`: the job, queued. */
export const exportCreatedSchema = exportSchema;
