import { Page } from '@/components/page';
import { DeviceLoader } from '@/features/devices/components/device-loader';
import { DeviceOverview } from '@/features/devices/overview/device-overview';

/** /device/overview/{id}. */
export default function DeviceOverviewPage() {
  return (
    <Page titleKey="titles.deviceOverview">
      <DeviceLoader>{(device) => <DeviceOverview device={device} />}</DeviceLoader>
    </Page>
  );
}
