export { ComparisonsRepository } from './comparisons.repository.js';
export { comparisonsRoutes } from './comparisons.routes.js';
export { ComparisonsService } from './comparisons.service.js';
