import type { TariffPresetInfo } from '@phasewatch/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET tariffs/presets: they change with a new server only. */
export function usePresets() {
  return useQuery({
    queryKey: ['tariffs', 'presets'],
    queryFn: ({ signal }) => apiClient.get<TariffPresetInfo[]>(api.tariffPresets, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
