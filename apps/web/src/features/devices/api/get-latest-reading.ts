import { type Device, deviceKind, type ReadingsResponse } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { parseServerDate } from '@/lib/dates';
import type { LatestReading } from '../live-reading';
import { mainParameters } from '../live-values';
import { deviceKeys } from './get-device';

export { type LatestReading, newestReading } from '../live-reading';

/** How far before the device's last reading the card looks for each main parameter's latest value. */
const LOOK_BACK_MS = 5 * 60_000;

/**
 * The newest value of each column in a readings answer (raw interval), with the newest timestamp:
 * what the live card shows until the hub pushes the next reading. Null when the answer is empty.
 */
export function latestOf(res: Pick<ReadingsResponse, 'ts' | 'series'>): LatestReading | null {
  const values: Record<string, number> = {};
  let ts: number | null = null;
  for (const [name, s] of Object.entries(res.series)) {
    const column = s.kind === 'raw' ? s.values : s.kind === 'counter' ? s.value : s.avg;
    if (!column) continue;
    for (let i = column.length - 1; i >= 0; i--) {
      const v = column[i];
      const at = res.ts[i];
      if (typeof v === 'number' && at !== undefined) {
        values[name] = v;
        ts = ts === null ? at : Math.max(ts, at);
        break;
      }
    }
  }
  return ts === null ? null : { ts, values };
}

/**
 * The device's latest reading before the page opened, for its main parameters: raw readings of the
 * few minutes up to `lastSeen` (server UTC), so a device that went quiet still shows its last values.
 */
export const latestReadingQueryOptions = (device: Pick<Device, 'id' | 'typeCode' | 'lastSeen'> | undefined) => {
  const lastSeen = device?.lastSeen ?? null;
  return queryOptions({
    queryKey: deviceKeys.latest(device?.id ?? 0, lastSeen),
    enabled: !!device && !!lastSeen,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async ({ signal }) => {
      if (!device || !lastSeen) return null;
      const seen = parseServerDate(lastSeen)?.getTime();
      if (seen === undefined) return null;
      const params = new URLSearchParams({
        from: String(seen - LOOK_BACK_MS),
        to: String(seen + 1000),
        interval: 'raw',
        params: mainParameters(deviceKind(device.typeCode)).join(','),
      });
      const res = await apiClient.get<ReadingsResponse>(`${api.deviceReadings(device.id)}?${params}`, { signal, notFoundRedirect: false });
      return latestOf(res);
    },
  });
};

export function useLatestReading(device: Pick<Device, 'id' | 'typeCode' | 'lastSeen'> | undefined) {
  return useQuery(latestReadingQueryOptions(device));
}
