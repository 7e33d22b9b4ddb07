import type { ReadingInterval, ReadingsResponse } from '@phasewatch/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

export interface ReadingsRequest {
  deviceId: number;
  from: number;
  to: number;
  interval: ReadingInterval;
  /** The parameters the chart draws; none asks for everything the device sent in the range. */
  params?: readonly string[];
}

export const readingsKeys = {
  all: (deviceId: number) => ['devices', deviceId, 'readings'] as const,
  one: (r: ReadingsRequest) => ['devices', r.deviceId, 'readings', r.from, r.to, r.interval, r.params?.join(',') ?? '*'] as const,
};

/** GET devices/:id/readings for a range, an interval and the given parameters only. */
export function getReadings(r: ReadingsRequest, signal?: AbortSignal): Promise<ReadingsResponse> {
  const q = new URLSearchParams({ from: String(r.from), to: String(r.to), interval: r.interval });
  if (r.params?.length) q.set('params', r.params.join(','));
  return apiClient.get<ReadingsResponse>(`${api.deviceReadings(r.deviceId)}?${q}`, { signal, notFoundRedirect: false });
}

export const readingsQueryOptions = (r: ReadingsRequest) =>
  queryOptions({
    queryKey: readingsKeys.one(r),
    queryFn: ({ signal }) => getReadings(r, signal),
    // Past ranges do not change; the open range gets pushed readings merged in (no refetch needed).
    staleTime: 5 * 60_000,
  });

/** Readings of a chart; the previous answer stays on screen while a new range loads. */
export function useReadings(r: ReadingsRequest, enabled = true) {
  return useQuery({ ...readingsQueryOptions(r), enabled, placeholderData: keepPreviousData });
}
