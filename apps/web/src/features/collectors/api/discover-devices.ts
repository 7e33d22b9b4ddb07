import type { DiscoveredDevice } from '@phasewatch/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET collectors/discover: Fox devices that answered F&F's discovery on the server's network (a few seconds). */
export async function discoverDevices(): Promise<DiscoveredDevice[]> {
  return (await apiClient.get<{ devices: DiscoveredDevice[] }>(api.collectorDiscover)).devices;
}

/** A search started by the user (a mutation: it is an action with a wait, never cached or refetched). */
export function useDiscoverDevices() {
  return useMutation({ mutationFn: discoverDevices });
}
