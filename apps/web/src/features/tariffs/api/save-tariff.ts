import type { Tariff, TariffRequest } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { locationKeys } from '@/lib/location-keys';

/** POST locations/:locationId/tariffs (no id) or PUT …/tariffs/:tariffId: the whole tariff with its price history. */
export function useSaveTariff(locationId: number, tariffId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TariffRequest) =>
      tariffId === null
        ? apiClient.post<Tariff>(api.locationTariffs(locationId), body, { notFoundRedirect: false })
        : apiClient.put<Tariff>(api.locationTariff(locationId, tariffId), body, { notFoundRedirect: false }),
    // Not awaited: the screen moves on at once, the lists refetch behind it.
    onSuccess: () => {
      void invalidateTariffs(qc, locationId);
    },
  });
}

/** DELETE locations/:locationId/tariffs/:tariffId: devices using it keep working without a tariff. */
export function useDeleteTariff(locationId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (tariffId: number) => apiClient.delete<{ ok: true }>(api.locationTariff(locationId, tariffId), { notFoundRedirect: false }),
    onSuccess: (_, tariffId) => {
      // Gone: its own query is dropped, not asked for again (a 404 on the page being left).
      qc.removeQueries({ queryKey: [...locationKeys.tariffs(locationId), tariffId] });
      void invalidateTariffs(qc, locationId);
    },
  });
}

function invalidateTariffs(qc: ReturnType<typeof useQueryClient>, locationId: number) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: locationKeys.all }),
    qc.invalidateQueries({ queryKey: ['devices'] }),
    qc.invalidateQueries({ queryKey: ['tariffs', 'stats'] }),
    qc.invalidateQueries({ queryKey: ['tariffs', 'advisor'] }),
    qc.invalidateQueries({ queryKey: locationKeys.location(locationId) }),
  ]);
}
