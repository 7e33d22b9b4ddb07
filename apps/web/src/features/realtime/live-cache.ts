import type { DeviceStatusEvent, LiveMeasurement } from '@phasewatch/shared';
import type { QueryClient } from '@tanstack/react-query';

/** How many recent readings a device's live cache keeps (enough for a short sparkline). */
export const LIVE_HISTORY = 120;

export interface LiveSeries {
  latest: LiveMeasurement | null;
  /** Oldest first, at most LIVE_HISTORY. */
  recent: LiveMeasurement[];
}

export const realtimeKeys = {
  live: (deviceId: number) => ['realtime', 'live', deviceId] as const,
  status: (deviceId: number) => ['realtime', 'status', deviceId] as const,
};

/** Writes a pushed reading into the device's cache entry; pages read it, nothing is refetched. */
export function applyLiveMeasurement(client: QueryClient, m: LiveMeasurement): void {
  client.setQueryData<LiveSeries>(realtimeKeys.live(m.deviceId), (prev) => {
    const recent = prev ? [...prev.recent, m] : [m];
    // Readings may arrive out of order after a reconnect; the newest stays `latest`.
    if (recent.length > 1 && (recent.at(-2)?.ts ?? 0) > m.ts) recent.sort((a, b) => a.ts - b.ts);
    if (recent.length > LIVE_HISTORY) recent.splice(0, recent.length - LIVE_HISTORY);
    return { latest: recent.at(-1) ?? m, recent };
  });
}

export function applyDeviceStatus(client: QueryClient, s: DeviceStatusEvent): void {
  client.setQueryData<DeviceStatusEvent>(realtimeKeys.status(s.deviceId), s);
}
