import type { Comparison, ComparisonRequest } from '@phasewatch/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

export const comparisonKeys = { all: ['comparisons'] as const };

/** GET comparisons: the user's saved comparisons. */
export function useComparisons() {
  return useQuery({
    queryKey: comparisonKeys.all,
    queryFn: ({ signal }) => apiClient.get<Comparison[]>(api.comparisons, { signal }),
  });
}

/**
 * POST comparisons (no id) or PUT comparisons/:id. The list shows the change at once; when the server
 * refuses it the caller shows "Error saving comparations" and the list is asked again, so the view
 * reverts to what the server holds (spec section 8).
 */
export function useSaveComparison() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ComparisonRequest }) =>
      id === null
        ? apiClient.post<Comparison>(api.comparisons, body, { notFoundRedirect: false })
        : apiClient.put<Comparison>(api.comparison(id), body, { notFoundRedirect: false }),
    onMutate: async ({ id, body }) => {
      await qc.cancelQueries({ queryKey: comparisonKeys.all });
      if (id !== null)
        qc.setQueryData<Comparison[]>(comparisonKeys.all, (list) =>
          list?.map((c) => (c.id === id ? { ...c, name: body.name.trim(), series: body.series.map((s) => ({ ...s })) } : c)),
        );
    },
    onSuccess: (saved) =>
      qc.setQueryData<Comparison[]>(comparisonKeys.all, (list) => [...(list ?? []).filter((c) => c.id !== saved.id), saved]),
    onSettled: () => qc.invalidateQueries({ queryKey: comparisonKeys.all }),
  });
}

/** DELETE comparisons/:id (the list drops it at once and is asked again after). */
export function useDeleteComparison() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiClient.delete<{ ok: true }>(api.comparison(id), { notFoundRedirect: false }),
    onMutate: async (id) => {
      await qc.cancelQueries({ queryKey: comparisonKeys.all });
      qc.setQueryData<Comparison[]>(comparisonKeys.all, (list) => list?.filter((c) => c.id !== id));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: comparisonKeys.all }),
  });
}
