export { InstanceMembership } from './collectors.membership.js';
export { CollectorsRepository } from './collectors.repository.js';
export { collectorsRoutes } from './collectors.routes.js';
export { CollectorsService } from './collectors.service.js';
