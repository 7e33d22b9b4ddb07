/** Tariffs: a location's tariffs and their prices, the presets, the tariff statistics, and money formats. */
export { usePresets } from './api/get-presets';
export { useLocationTariffs, useTariff } from './api/get-tariff';
export { SimulatedNote } from './components/simulated-note';
export { TariffForm } from './components/tariff-form';
export { TariffStatsView } from './components/tariff-stats';
export { formatKWh, formatMoney, formatPrice } from './format';
