/**
 * Charts: readings queries, the chart specs of each device kind, the chart card and the number formats of
 * charts. The uPlot drawing code is not here: it is a chunk of its own, loaded through `preloadChart` /
 * `useChartComponent` (chart-module.ts).
 */
export { getReadings, type ReadingsRequest, readingsQueryOptions, useReadings } from './api/get-readings';
export { baseLoad, type ComparePeriod, sumColumns } from './chart-data';
export { preloadChart, useChartComponent } from './chart-module';
export { type ChartSpec, chartParams, chartsFor, chartsInFirstScreen, isSecondaryChart, type PhaseView } from './chart-specs';
export { ChartCard, type ChartRange } from './components/chart-card';
export { formatChartValue } from './format';
export { useInView } from './use-in-view';
export { zonedDate } from './zoned-date';
