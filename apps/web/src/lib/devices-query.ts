import type { DeviceListItem } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { ApiError } from '@/lib/api-client';

/**
 * The user's device list, one cached query: the dashboard, the devices pages, analytics, exports, imports
 * and the notification centre all read it, so it belongs to none of those features.
 */

/** GET devices; a server without the endpoint yet (404) counts as no devices. */
export async function getDevices(): Promise<DeviceListItem[]> {
  try {
    const list = await apiClient.get<DeviceListItem[]>(api.devices, { notFoundRedirect: false });
    return Array.isArray(list) ? list : [];
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

export const devicesQueryOptions = () => queryOptions({ queryKey: ['devices'], queryFn: getDevices });

export function useDevices() {
  return useQuery(devicesQueryOptions());
}
