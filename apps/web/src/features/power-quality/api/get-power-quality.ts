import type { PowerQualityResponse } from '@phasewatch/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET devices/:id/power-quality?week=YYYY-MM-DD: the EN 50160 report of the device's local week (its Monday). */
export function usePowerQuality(id: number, week: string) {
  return useQuery({
    queryKey: ['devices', id, 'power-quality', week],
    queryFn: ({ signal }) =>
      apiClient.get<PowerQualityResponse>(`${api.devicePowerQuality(id)}?${new URLSearchParams({ week })}`, {
        signal,
        notFoundRedirect: false,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
