import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { locationKeys } from '@/lib/location-keys';

/** DELETE locations/:id: the location and its tariffs; its devices stay, without a location. */
export function useDeleteLocation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiClient.delete<{ ok: true }>(api.location(id), { notFoundRedirect: false }),
    onSuccess: (_, id) => {
      qc.removeQueries({ queryKey: locationKeys.location(id) });
      // Not awaited: the screen moves on at once, the lists refetch behind it.
      void qc.invalidateQueries({ queryKey: locationKeys.all });
      void qc.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}
