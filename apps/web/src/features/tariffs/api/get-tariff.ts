import type { Tariff } from '@phasewatch/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { locationKeys } from '@/lib/location-keys';

/** GET locations/:locationId/tariffs: the location's tariffs with their prices. */
export function useLocationTariffs(locationId: number, enabled = true) {
  return useQuery({
    queryKey: locationKeys.tariffs(locationId),
    queryFn: ({ signal }) => apiClient.get<Tariff[]>(api.locationTariffs(locationId), { signal, notFoundRedirect: false }),
    enabled,
  });
}

/** GET locations/:locationId/tariffs/:tariffId. */
export function useTariff(locationId: number, tariffId: number, enabled = true) {
  return useQuery({
    queryKey: [...locationKeys.tariffs(locationId), tariffId],
    queryFn: ({ signal }) => apiClient.get<Tariff>(api.locationTariff(locationId, tariffId), { signal, notFoundRedirect: false }),
    enabled,
  });
}
