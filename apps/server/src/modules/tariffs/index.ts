export { type EnergySource, QuarterEnergyReader } from './tariffs.energy.js';
export { TariffsRepository } from './tariffs.repository.js';
export { tariffsRoutes } from './tariffs.routes.js';
export { locationNotFound, type PlacedDevice, type TariffLocations, TariffsService } from './tariffs.service.js';
