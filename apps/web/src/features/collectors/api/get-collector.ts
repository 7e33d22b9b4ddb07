import type { CollectorStatus } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

export const collectorKeys = { status: (id: number) => ['devices', id, 'collector'] as const };

/**
 * GET devices/:id/collector. A device Phasewatch does not read answers 404: that is "no collector" here,
 * not the 404 page, and null to the caller.
 */
export const collectorQueryOptions = (id: number) =>
  queryOptions({
    queryKey: collectorKeys.status(id),
    queryFn: async ({ signal }) => {
      try {
        return await apiClient.get<CollectorStatus>(api.deviceCollector(id), { signal, notFoundRedirect: false });
      } catch (err) {
        if ((err as { status?: number }).status === 404) return null;
        throw err;
      }
    },
    // The state changes with each poll: looked at again every few seconds while the page is open
    // (a device Phasewatch does not read is asked once).
    refetchInterval: (query) => (query.state.data ? 5000 : false),
    staleTime: 4000,
  });

export function useCollector(id: number) {
  return useQuery(collectorQueryOptions(id));
}
