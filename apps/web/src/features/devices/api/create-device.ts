import type { CreateDeviceRequest, CreateDeviceResponse } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { devicesQueryOptions } from '@/lib/devices-query';

/** POST devices: registers a device; the answer carries its ingest key, shown only this once. */
export function createDevice(body: CreateDeviceRequest): Promise<CreateDeviceResponse> {
  return apiClient.post<CreateDeviceResponse>(api.devices, body);
}

export function useCreateDevice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createDevice,
    onSuccess: () => qc.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
  });
}
