/** Exports: CSV/PDF export jobs, the export button with its dialog, and the notices of finished jobs. */
export { useCreateExport } from './api/create-export';
export { ExportButton } from './components/export-button';
export { LazyExportNotices } from './components/export-notices-lazy';
