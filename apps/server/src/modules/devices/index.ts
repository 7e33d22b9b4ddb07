export { readingsRoutes } from './devices.readings.routes.js';
export { type DeviceReads, DevicesRepository, type IngestIdentity } from './devices.repository.js';
export { type CollectedDevices, devicesRoutes } from './devices.routes.js';
export { DevicesService, notificationsOf } from './devices.service.js';
