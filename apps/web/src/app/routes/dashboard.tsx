import { useEffect } from 'react';
import { Page } from '@/components/page';
import { DeviceList } from '@/features/devices/components/device-list';
import { loadDevicePrefetch } from '@/features/devices/detail/prefetch-loader';

/**
 * The code of a device page (its route chunk, the route's prefetch and the chart chunk), loaded once the
 * dashboard has been shown and the browser is idle: the device a user clicks then opens without first
 * fetching, compiling and running it. Not part of the dashboard's initial JavaScript; a failure here is
 * ignored (the device route loads it again, with its own error handling).
 */
function useDevicePageCode() {
  useEffect(() => {
    const load = () => {
      void import('./device-details').catch(() => {});
      loadDevicePrefetch().catch(() => {});
      void import('@/features/charts/chart-module').then((m) => m.preloadChart()).catch(() => {});
    };
    if (typeof window.requestIdleCallback === 'function') {
      const h = window.requestIdleCallback(load, { timeout: 3000 });
      return () => window.cancelIdleCallback(h);
    }
    const h = window.setTimeout(load, 1000);
    return () => window.clearTimeout(h);
  }, []);
}

export default function DashboardPage() {
  useDevicePageCode();
  return (
    <Page titleKey="titles.dashboard">
      <DeviceList />
    </Page>
  );
}
