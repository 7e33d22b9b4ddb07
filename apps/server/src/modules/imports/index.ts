export { createImports, IMPORT_JOB_KINDS } from './imports.module.js';
export type { ImportsService } from './imports.service.js';
