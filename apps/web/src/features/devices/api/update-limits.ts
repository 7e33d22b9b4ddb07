import type { Device, Limits } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { deviceKeys } from './get-device';

/** PUT devices/:id/limits: the voltage warning and critical levels (% of 230 V). */
export function updateLimits(id: number, limits: Limits): Promise<Device> {
  return apiClient.put<Device>(api.deviceLimits(id), limits, { notFoundRedirect: false });
}

export function useUpdateLimits(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (limits: Limits) => updateLimits(id, limits),
    onSuccess: (device) => qc.setQueryData(deviceKeys.device(id), device),
  });
}
