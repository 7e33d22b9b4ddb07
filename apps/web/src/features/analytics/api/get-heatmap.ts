import type { HeatmapKind, HeatmapResponse } from '@phasewatch/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

export interface HeatmapRequest {
  deviceId: number;
  parameter: string;
  kind: HeatmapKind;
  /** Local dates, both included. */
  from: string;
  to: string;
}

/** GET analytics/heatmap. */
export const heatmapQueryOptions = (r: HeatmapRequest) =>
  queryOptions({
    queryKey: ['analytics', 'heatmap', r.deviceId, r.parameter, r.kind, r.from, r.to],
    queryFn: ({ signal }) =>
      apiClient.get<HeatmapResponse>(`${api.heatmap}?${new URLSearchParams({ ...r, deviceId: String(r.deviceId) })}`, {
        signal,
        notFoundRedirect: false,
      }),
    staleTime: 60_000,
  });

export function useHeatmap(r: HeatmapRequest, enabled: boolean) {
  return useQuery({ ...heatmapQueryOptions(r), enabled, placeholderData: keepPreviousData });
}
