import type { SumComparisonRequest, SumComparisonResponse } from '@phasewatch/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** POST analytics/sums: figures side by side (a read: cached like one). */
export function useSums(body: SumComparisonRequest | null) {
  return useQuery({
    queryKey: ['analytics', 'sums', body],
    queryFn: ({ signal }) => apiClient.post<SumComparisonResponse>(api.sums, body, { signal, notFoundRedirect: false }),
    enabled: !!body,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
