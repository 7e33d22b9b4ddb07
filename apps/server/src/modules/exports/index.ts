export { type ExportJobInput, run as runExportJob } from './export-job.js';
export { ExportsRepository } from './exports.repository.js';
export { exportsRoutes } from './exports.routes.js';
export {
  EXPORT_JOB_KINDS,
  type ExportPayload,
  type ExportResult,
  ExportsService,
  type ReportCheck,
  type ReportExtras,
  type ReportKindInput,
} from './exports.service.js';
export { ZonedIso } from './zoned-iso.js';
