export { LocationsRepository } from './locations.repository.js';
export { locationsRoutes } from './locations.routes.js';
export { type DevicePlacement, LocationsService } from './locations.service.js';
