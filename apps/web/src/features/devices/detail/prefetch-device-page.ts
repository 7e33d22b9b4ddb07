import { type Device, type DeviceKind, deviceKind, kindFigures, parameterInfo, type ReadingsResponse } from '@phasewatch/shared';
import type { QueryClient } from '@tanstack/react-query';
import { chartParams, chartsFor, chartsInFirstScreen, getReadings, preloadChart, readingsQueryOptions } from '@/features/charts';
import { authStore, storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone, parseServerDate } from '@/lib/dates';
import { deviceQueryOptions, isMissingDevice, knownDevice } from '../api/get-device';
import { deviceEnergyQueryOptions } from '../api/get-device-energy';
import { latestReadingQueryOptions } from '../api/get-latest-reading';
import { baseLoadRequest } from './base-load';
import { rangeOf, readSelection } from './chart-range';

/**
 * Starts what a device page needs first — the device, its energy figures, the readings of the charts in
 * the first screen and the chart chunk — as soon as the route matches, before React has rendered the
 * page: they then run beside the page's own JavaScript and first render instead of after them. The
 * page's queries find them in the cache (the same keys), so nothing is asked twice. Only the first
 * charts: the others load when they come near the viewport, as before. Signed out, nothing is asked
 * (the page sends the user to sign in).
 *
 * The device's data is asked beside the device when the device is known to exist — the dashboard's list
 * (the way users arrive) or an earlier answer names it; otherwise (a typed or shared address) once the
 * device has answered, so an id that names no device costs that one request, not one 404 per chart.
 */
export function prefetchDevicePage(
  client: QueryClient,
  kind: DeviceKind,
  deviceId: number,
  search: URLSearchParams,
  now = Date.now(),
): void {
  if (!authStore.getToken() || !Number.isInteger(deviceId) || deviceId <= 0) return;
  const known = knownDevice(client, deviceId);
  // The device, then its last reading (the live values card; asked from the device's last-seen time).
  // The route may have asked for the device already (in flight: the same request; a 404: not asked again).
  const asked = client.getQueryState(deviceQueryOptions(deviceId).queryKey);
  const device =
    asked?.status === 'error' && isMissingDevice(asked.error)
      ? Promise.reject(asked.error)
      : client.fetchQuery(deviceQueryOptions(deviceId));
  device
    .then((d) => {
      if (deviceKind(d.typeCode) === kind && d.lastSeen) void client.prefetchQuery(latestReadingQueryOptions(d));
    })
    .catch(() => {});
  // The chart code too (a failure shows when a chart asks for it again).
  preloadChart().catch(() => {});
  const rest = (d: Pick<Device, 'typeCode' | 'lastSeen'>) => {
    // Another type's route redirects to the device's own, which asks for its own charts.
    if (deviceKind(d.typeCode) === kind) prefetchDeviceData(client, kind, deviceId, search, now, d.lastSeen);
  };
  if (known) rest(known);
  else device.then(rest, () => {});
}

/** The energy figures, the "always on" week and the first screen's charts of a device that exists. */
function prefetchDeviceData(
  client: QueryClient,
  kind: DeviceKind,
  deviceId: number,
  search: URLSearchParams,
  now: number,
  lastSeen: string | null,
): void {
  // The energy figures of the summary (every kind shows them).
  void client.prefetchQuery(deviceEnergyQueryOptions(deviceId));
  // The "always on" card's week of power, where the kind shows it.
  if (kindFigures(kind).baseLoad) void client.prefetchQuery(readingsQueryOptions(baseLoadRequest(deviceId, kind, now)));
  const figures = kindFigures(kind);
  const timezone = effectiveTimezone(storedTimezone());
  const sel = readSelection(search, now, timezone);
  const range = rangeOf(sel, timezone, now, lastSeen ? (parseServerDate(lastSeen)?.getTime() ?? null) : null);
  if (range.tooLong || range.reversed) return;
  const span = { deviceId, from: range.from, to: range.to };
  // The default detail first asks which parameters the device sent (see DeviceCharts).
  if (figures.kind === 'generic') {
    void client.prefetchQuery(readingsQueryOptions({ ...span, interval: '24h' }));
    return;
  }
  const charts = chartsFor(figures, figures.phaseViews.length ? sel.view : 'summary').slice(0, chartsInFirstScreen());
  // The first screen's charts of instantaneous parameters share one request: an answer's buckets are the
  // stored ones whatever instantaneous parameters are asked, and each series depends on its parameter
  // only, so the answer split per chart is what each chart alone would get. (A counter's buckets also
  // depend on which counters are asked, gaps spread over: those charts ask alone.)
  const instant = charts.filter((spec) => chartParams(spec).every((p) => parameterInfo(p)?.kind !== 'counter'));
  const shared =
    instant.length > 1 ? getReadings({ ...span, interval: range.interval, params: [...new Set(instant.flatMap(chartParams))] }) : null;
  shared?.catch(() => {});
  for (const spec of charts) {
    const params = chartParams(spec);
    const options = readingsQueryOptions({ ...span, interval: range.interval, params });
    if (shared && instant.includes(spec))
      void client.prefetchQuery({ ...options, queryFn: () => shared.then((r) => pickSeries(r, params)) });
    else void client.prefetchQuery(options);
  }
}

/** The answer for some of its parameters only (those the device sent; the same buckets). */
export function pickSeries(res: ReadingsResponse, params: readonly string[]): ReadingsResponse {
  const series: ReadingsResponse['series'] = {};
  for (const p of params) {
    const s = res.series[p];
    if (s) series[p] = s;
  }
  return { ...res, series };
}
