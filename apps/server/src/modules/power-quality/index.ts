export { type PowerQualityPdfJob, powerQualityPdfJob } from './power-quality.job.js';
export { createPowerQuality, POWER_QUALITY_JOB_KINDS } from './power-quality.module.js';
export { loadPowerQualityReport, type PowerQualitySource, weekVerdicts } from './power-quality.service.js';
