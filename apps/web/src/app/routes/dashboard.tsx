import { Page } from '@/components/page';
import { DeviceList } from '@/features/devices/components/device-list';

export default function DashboardPage() {
  return (
    <Page titleKey="titles.dashboard">
      <DeviceList />
    </Page>
  );
}
