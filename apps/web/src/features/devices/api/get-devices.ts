import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { ApiError } from '@/lib/api-client';

export interface DeviceSummary {
  id: number;
  name: string;
  model: string;
  typeCode: number;
  status: 'online' | 'offline';
  weakSignal: boolean;
  location: string | null;
  tariff: string | null;
  totalEnergyKwh: number | null;
}

/** GET devices; a server without the endpoint yet (404) counts as no devices. */
export async function getDevices(): Promise<DeviceSummary[]> {
  try {
    const list = await apiClient.get<DeviceSummary[]>(api.devices, { notFoundRedirect: false });
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
