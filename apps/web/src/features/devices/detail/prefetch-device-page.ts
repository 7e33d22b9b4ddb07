import { type DeviceKind, kindFigures } from '@phasewatch/shared';
import type { QueryClient } from '@tanstack/react-query';
import { readingsQueryOptions } from '@/features/charts/api/get-readings';
import { preloadChart } from '@/features/charts/chart-module';
import { chartParams, chartsFor } from '@/features/charts/chart-specs';
import { authStore, storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { deviceQueryOptions } from '../api/get-device';
import { rangeOf, readSelection } from './chart-range';

/** Charts in the first screen: two rows of two from the `lg` breakpoint (75em), else two rows of one. */
function chartsInFirstScreen(): number {
  return typeof window !== 'undefined' && window.matchMedia?.('(min-width: 75em)').matches ? 4 : 2;
}

/**
 * Starts what a device page needs first — the device, the readings of the charts in the first screen and
 * the chart chunk — as soon as the route matches, before React has rendered the page: they then run
 * beside the page's own JavaScript and first render instead of after them. The page's queries find them
 * in the cache (the same keys), so nothing is asked twice. Only the first charts: the others load when
 * they come near the viewport, as before. Signed out, nothing is asked (the page sends the user to sign in).
 */
export function prefetchDevicePage(
  client: QueryClient,
  kind: DeviceKind,
  deviceId: number,
  search: URLSearchParams,
  now = Date.now(),
): void {
  if (!authStore.getToken() || !Number.isInteger(deviceId) || deviceId <= 0) return;
  void client.prefetchQuery(deviceQueryOptions(deviceId));
  // The chart code too (a failure shows when a chart asks for it again).
  preloadChart().catch(() => {});
  const figures = kindFigures(kind);
  const timezone = effectiveTimezone(storedTimezone());
  const sel = readSelection(search, now, timezone);
  const range = rangeOf(sel, timezone);
  if (range.tooLong || range.reversed) return;
  const span = { deviceId, from: range.from, to: range.to };
  // The default detail first asks which parameters the device sent (see DeviceCharts).
  if (figures.kind === 'generic') {
    void client.prefetchQuery(readingsQueryOptions({ ...span, interval: '24h' }));
    return;
  }
  const charts = chartsFor(figures, figures.phaseViews.length ? sel.view : 'summary');
  for (const spec of charts.slice(0, chartsInFirstScreen())) {
    void client.prefetchQuery(readingsQueryOptions({ ...span, interval: range.interval, params: chartParams(spec) }));
  }
}
