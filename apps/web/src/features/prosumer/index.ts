/** Prosumer: a location's production balance and its settlement. The tab is a chunk of its own: its loader is exported. */
export const loadProsumerTab = () => import('./components/prosumer-tab');
