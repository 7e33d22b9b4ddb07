import type { Device } from '@phasewatch/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import { devicesQueryOptions } from '@/lib/devices-query';

export const deviceKeys = {
  device: (id: number) => ['devices', id] as const,
  energy: (id: number) => ['devices', id, 'energy'] as const,
  latest: (id: number, lastSeen: string | null) => ['devices', id, 'latest', lastSeen] as const,
};

/** A device query's error that says the device is not the user's (or not there): never asked again by itself. */
export const isMissingDevice = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

/** GET devices/:id. A 404 (not the user's device) is answered to the page, not sent to /404. */
export const deviceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: deviceKeys.device(id),
    queryFn: ({ signal }) => apiClient.get<Device>(api.device(id), { signal, notFoundRedirect: false }),
    // The app's default, stated here: the device page's prefetch must still be fresh when the page mounts.
    staleTime: 30_000,
    // A device that is not there (the route's prefetch was told so) is not asked for again as the page
    // mounts: one request for a wrong id.
    retryOnMount: (query) => !isMissingDevice(query.state.error),
  });

export function useDevice(id: number, enabled = true) {
  return useQuery({ ...deviceQueryOptions(id), enabled });
}

/** What the cache knows of a device: its own answer (its page seen before) or the dashboard's list naming it. */
export function knownDevice(client: QueryClient, id: number): Pick<Device, 'typeCode' | 'lastSeen'> | undefined {
  return (
    client.getQueryData(deviceQueryOptions(id).queryKey) ?? client.getQueryData(devicesQueryOptions().queryKey)?.find((d) => d.id === id)
  );
}
