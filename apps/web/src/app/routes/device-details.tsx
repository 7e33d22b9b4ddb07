import { DeviceDetail } from '@/features/devices';

/** /device-energy-details/{id}: three-phase energy meters (type 13, 16), with phase 1–3 and summary views. */
export function EnergyDeviceDetailsPage() {
  return <DeviceDetail kind="energy" />;
}

/** /single-phase-device-details/{id}. */
export function SinglePhaseDeviceDetailsPage() {
  return <DeviceDetail kind="singlePhase" />;
}

/** /solar-device-details/{id}: production, export and the inverter's own consumption. */
export function SolarDeviceDetailsPage() {
  return <DeviceDetail kind="solar" />;
}

/** /thermo-device-details/{id}: temperature and set point with the relay as a band, the heater's energy. */
export function ThermoDeviceDetailsPage() {
  return <DeviceDetail kind="thermostat" />;
}

/** /device-details/{id}: any other type code, charting whatever parameters the device sends. */
export function DeviceDetailsPage() {
  return <DeviceDetail kind="generic" />;
}
