import type { Location, LocationSummary } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { locationKeys } from '@/lib/location-keys';

/** GET locations/:id; another user's or a deleted location answers 404 to the page. */
export const locationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: locationKeys.location(id),
    queryFn: ({ signal }) => apiClient.get<Location>(api.location(id), { signal, notFoundRedirect: false }),
  });

export function useLocation(id: number, enabled = true) {
  return useQuery({ ...locationQueryOptions(id), enabled });
}

/** GET locations/:id/summary: energy and cost this month and last month. */
export function useLocationSummary(id: number) {
  return useQuery({
    queryKey: locationKeys.summary(id),
    queryFn: ({ signal }) => apiClient.get<LocationSummary>(api.locationSummary(id), { signal, notFoundRedirect: false }),
    staleTime: 60_000,
  });
}
