/** Locations: the user's places, their figures, and a device's place fields; the tariffs menu's target. */
export { useLocations } from './api/get-locations';
export { DevicePlaceFields, type Placement } from './components/device-place-fields';
export { LocationForm } from './components/location-form';
export { LocationList } from './components/location-list';
export { LocationLoader } from './components/location-loader';
export { LocationView } from './components/location-view';
export { useTariffsMenuTarget } from './use-tariffs-menu-target';
