import { useEffect } from 'react';
import { Page } from '@/components/page';
import { DeviceList, loadDevicePrefetch } from '@/features/devices';
import { afterPaintWhenIdle } from '@/lib/after-paint';
import { useDevices } from '@/lib/devices-query';

/**
 * The code of a device page (its route chunk, the route's prefetch and the chart chunk), loaded once the
 * dashboard's device list has rendered (its data is there and a frame has been painted with it) and the
 * browser is idle: the device a user clicks then opens without first fetching, compiling and running it,
 * and none of it competes with the list on a slow phone (it did: the list's LCP waited for it). Not part of
 * the dashboard's initial JavaScript; a failure here is ignored (the device route loads it again).
 */
function useDevicePageCode(listShown: boolean) {
  useEffect(() => {
    if (!listShown) return;
    const load = () => {
      void import('./device-details').catch(() => {});
      loadDevicePrefetch().catch(() => {});
      void import('@/features/charts/chart-module').then((m) => m.preloadChart()).catch(() => {});
    };
    // After the frame that shows the list, then when the browser is idle.
    return afterPaintWhenIdle(load, 3000);
  }, [listShown]);
}

export default function DashboardPage() {
  // The list's own query (shared cache): no request of its own.
  const devices = useDevices();
  useDevicePageCode(devices.isSuccess);
  return (
    <Page titleKey="titles.dashboard">
      <DeviceList />
    </Page>
  );
}
