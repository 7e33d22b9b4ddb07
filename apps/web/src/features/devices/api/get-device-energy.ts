import type { EnergyResponse } from '@phasewatch/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { deviceKeys } from './get-device';

/** GET devices/:id/energy: today, month, year and total in the user's timezone. */
export function useDeviceEnergy(id: number, enabled = true) {
  return useQuery({
    queryKey: deviceKeys.energy(id),
    queryFn: ({ signal }) => apiClient.get<EnergyResponse>(api.deviceEnergy(id), { signal, notFoundRedirect: false }),
    enabled,
  });
}
