import type { EnergyResponse } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { deviceKeys } from './get-device';

/** GET devices/:id/energy: today, month, year and total in the user's timezone. */
export const deviceEnergyQueryOptions = (id: number) =>
  queryOptions({
    queryKey: deviceKeys.energy(id),
    queryFn: ({ signal }) => apiClient.get<EnergyResponse>(api.deviceEnergy(id), { signal, notFoundRedirect: false }),
    // The app's default, stated here: the device page's prefetch must still be fresh when the page mounts.
    staleTime: 30_000,
  });

export function useDeviceEnergy(id: number, enabled = true) {
  return useQuery({ ...deviceEnergyQueryOptions(id), enabled });
}
