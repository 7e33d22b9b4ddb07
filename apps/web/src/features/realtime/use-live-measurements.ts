import type { DeviceStatusEvent } from '@phasewatch/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type LiveSeries, realtimeKeys } from './live-cache';
import { useHubClient } from './realtime-provider';

const EMPTY: LiveSeries = { latest: null, recent: [] };

/**
 * The live readings of a device while the component is mounted: subscribes on the hub (kept across
 * reconnects) and reads the cache the provider writes into. Nothing is fetched.
 */
export function useLiveMeasurements(deviceId: number | null | undefined): LiveSeries {
  const client = useHubClient();
  useEffect(() => {
    if (!client || !deviceId) return;
    return client.watchDevice(deviceId);
  }, [client, deviceId]);
  const { data } = useQuery({
    queryKey: realtimeKeys.live(deviceId ?? 0),
    queryFn: () => EMPTY,
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data ?? EMPTY;
}

/** The device's last pushed status (online/offline, weak signal), if any arrived this session. */
export function useLiveDeviceStatus(deviceId: number | null | undefined): DeviceStatusEvent | undefined {
  const { data } = useQuery({
    queryKey: realtimeKeys.status(deviceId ?? 0),
    queryFn: (): DeviceStatusEvent | null => null,
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data ?? undefined;
}
