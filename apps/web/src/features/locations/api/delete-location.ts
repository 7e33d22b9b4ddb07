import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { locationKeys } from './get-locations';

/** DELETE locations/:id: the location and its tariffs; its devices stay, without a location. */
export function useDeleteLocation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiClient.delete<{ ok: true }>(api.location(id), { notFoundRedirect: false }),
    onSuccess: async (_, id) => {
      qc.removeQueries({ queryKey: locationKeys.location(id) });
      await Promise.all([qc.invalidateQueries({ queryKey: locationKeys.all }), qc.invalidateQueries({ queryKey: ['devices'] })]);
    },
  });
}
