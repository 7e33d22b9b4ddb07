import { Page } from '@/components/page';
import { DeviceLoader, DeviceOverview } from '@/features/devices';

/** /device/overview/{id}. */
export default function DeviceOverviewPage() {
  return (
    <Page titleKey="titles.deviceOverview">
      <DeviceLoader>{(device) => <DeviceOverview device={device} />}</DeviceLoader>
    </Page>
  );
}
