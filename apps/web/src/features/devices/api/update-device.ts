import type { Device, NotificationSettings, UpdateDeviceRequest } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { devicesQueryOptions } from '@/lib/devices-query';
import { deviceKeys } from './get-device';

/** PUT devices/:id: the fields given change, the rest keep their values. */
export function updateDevice(id: number, body: UpdateDeviceRequest): Promise<Device> {
  return apiClient.put<Device>(api.device(id), body, { notFoundRedirect: false });
}

/** PUT devices/:id/notifications: the whole set of notification settings. */
export function updateNotifications(id: number, body: NotificationSettings): Promise<Device> {
  return apiClient.put<Device>(api.deviceNotifications(id), body, { notFoundRedirect: false });
}

/**
 * Saves the edit screen: the device fields, then its notification settings; the stored device is the
 * answer of the last call. The list refetches (names, locations and tariffs show there).
 */
export function useSaveDevice(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ device, notifications }: { device: UpdateDeviceRequest; notifications: NotificationSettings }) => {
      await updateDevice(id, device);
      return updateNotifications(id, notifications);
    },
    onSuccess: (device) => {
      qc.setQueryData(deviceKeys.device(id), device);
      void qc.invalidateQueries({ queryKey: devicesQueryOptions().queryKey, exact: true });
    },
  });
}
