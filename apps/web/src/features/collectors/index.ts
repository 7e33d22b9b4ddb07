/**
 * Collectors: devices that collect other devices' readings (a data logger, an inverter's gateway). The
 * collector card and the balance card are chunks of their own: their loaders are exported, not them.
 */
export { CollectedDone } from './components/collected-done';
export { type SourceChoice, SourceStep } from './components/source-step';
export { modelName } from './model-names';

export const loadBalanceCard = () => import('./components/balance-card');
export { BALANCE_CARD_MIN_HEIGHT } from './components/balance-size';
export const loadCollectorCard = () => import('./components/collector-card');
