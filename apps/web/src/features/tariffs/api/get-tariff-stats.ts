import type { Advisor, TariffStats } from '@phasewatch/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET tariffs/:id/stats?from&to[&deviceId]: local dates of the location, `to` exclusive. */
export function useTariffStats(id: number, q: { from: string; to: string; deviceId: number | null }, enabled = true) {
  const params = new URLSearchParams({ from: q.from, to: q.to, ...(q.deviceId ? { deviceId: String(q.deviceId) } : {}) });
  return useQuery({
    queryKey: ['tariffs', 'stats', id, q.from, q.to, q.deviceId],
    queryFn: ({ signal }) => apiClient.get<TariffStats>(`${api.tariffStats(id)}?${params}`, { signal, notFoundRedirect: false }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** GET tariffs/advisor: every preset priced over the device's or location's readings (the last 12 months unless a period is given). */
export function useAdvisor(
  target: { deviceId: number } | { locationId: number },
  period: { from: string; to: string } | null,
  enabled = true,
) {
  const params = new URLSearchParams({
    ...('deviceId' in target ? { deviceId: String(target.deviceId) } : { locationId: String(target.locationId) }),
    ...(period ?? {}),
  });
  return useQuery({
    queryKey: ['tariffs', 'advisor', params.toString()],
    queryFn: ({ signal }) => apiClient.get<Advisor>(`${api.tariffAdvisor}?${params}`, { signal, notFoundRedirect: false }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
