import type { Device } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { deviceKeys } from './get-device';

/** PUT devices/:id/meter-value: the user-entered meter reading (kWh) added to what is measured. */
export function updateMeterValue(id: number, meterValueKwh: number): Promise<Device> {
  return apiClient.put<Device>(api.deviceMeterValue(id), { meterValueKwh }, { notFoundRedirect: false });
}

export function useUpdateMeterValue(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (kwh: number) => updateMeterValue(id, kwh),
    onSuccess: async (device) => {
      qc.setQueryData(deviceKeys.device(id), device);
      // The total (here and on the dashboard) includes the meter value.
      await Promise.all([
        qc.invalidateQueries({ queryKey: deviceKeys.energy(id) }),
        qc.invalidateQueries({ queryKey: ['devices'], exact: true }),
      ]);
    },
  });
}
