/** Devices: the dashboard's list, a device's pages (details, overview, settings) and their prefetch. */
export { deviceQueryOptions, useDevice } from './api/get-device';
export { DeviceList } from './components/device-list';
export { DeviceLoader } from './components/device-loader';
export { autoInterval } from './detail/chart-range';
export { DeviceDetail } from './detail/device-detail';
export { loadDevicePrefetch, prefetchDeviceRoute } from './detail/prefetch-loader';
export { EditDeviceForm } from './edit/edit-device-form';
export { DeviceOverview } from './overview/device-overview';
