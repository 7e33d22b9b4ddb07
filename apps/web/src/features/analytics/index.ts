/** Analytics: consumption, sums, heat maps and saved comparisons of the user's devices. */
export { AnalyticsPage } from './components/analytics-page';
