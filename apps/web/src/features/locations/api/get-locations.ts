import type { Location } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { locationKeys } from '@/lib/location-keys';

/** GET locations: the user's locations with their tariffs and devices (no figures: see the summary). */
export const locationsQueryOptions = () =>
  queryOptions({
    queryKey: locationKeys.all,
    queryFn: ({ signal }) => apiClient.get<Location[]>(api.locations, { signal }),
    staleTime: 30_000,
  });

export function useLocations(enabled = true) {
  return useQuery({ ...locationsQueryOptions(), enabled });
}
