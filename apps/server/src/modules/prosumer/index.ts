export { FlowsReader } from './prosumer.energy.js';
export { ProsumerRepository } from './prosumer.repository.js';
export { prosumerRoutes } from './prosumer.routes.js';
export { ProsumerService } from './prosumer.service.js';
