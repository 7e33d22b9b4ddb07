export { FlowsReader } from './prosumer.energy.js';
export { ProsumerRepository } from './prosumer.repository.js';
export { prosumerRoutes } from './prosumer.routes.js';
export { ProsumerService } from './prosumer.service.js';
export { DEFAULT_RCE_SOURCE_URL } from './rce-import.js';
export { RceImporter } from './rce-importer.js';
