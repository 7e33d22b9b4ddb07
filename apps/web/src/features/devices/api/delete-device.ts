import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { deviceKeys } from './get-device';

/** DELETE devices/:id: the device and all its readings, for good. */
export function deleteDevice(id: number): Promise<{ ok: true }> {
  return apiClient.delete<{ ok: true }>(api.device(id), { notFoundRedirect: false });
}

export function useDeleteDevice(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => deleteDevice(id),
    onSuccess: async () => {
      qc.removeQueries({ queryKey: deviceKeys.device(id) });
      await qc.invalidateQueries({ queryKey: ['devices'], exact: true });
    },
  });
}
