import type { ConsumptionParams, ConsumptionResponse } from '@phasewatch/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET analytics/consumption: one page of energy per device and bucket, sorted on the server. */
export const consumptionQueryOptions = (r: ConsumptionParams) =>
  queryOptions({
    queryKey: ['analytics', 'consumption', r],
    queryFn: ({ signal }) => {
      const q = new URLSearchParams({
        deviceIds: r.deviceIds.join(','),
        from: String(r.from),
        to: String(r.to),
        interval: r.interval,
        sort: r.sort,
        dir: r.dir,
        page: String(r.page),
        pageSize: String(r.pageSize),
      });
      return apiClient.get<ConsumptionResponse>(`${api.consumption}?${q}`, { signal, notFoundRedirect: false });
    },
    staleTime: 60_000,
  });

export function useConsumption(r: ConsumptionParams, enabled: boolean) {
  return useQuery({ ...consumptionQueryOptions(r), enabled, placeholderData: keepPreviousData });
}
