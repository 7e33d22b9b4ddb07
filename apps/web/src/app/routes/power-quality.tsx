import { Text } from '@mantine/core';
import { mondayOf } from '@phasewatch/shared';
import { useParams, useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import { useDevice } from '@/features/devices';
import { PdfButton, QualityView } from '@/features/power-quality';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';

/** `/device/quality/{id}?week=YYYY-MM-DD`: the EN 50160 weekly voltage report (default: the last whole week). */
export function PowerQualityPage() {
  const { id } = useParams();
  const deviceId = Number(id);
  const device = useDevice(deviceId);
  const [search, setSearch] = useSearchParams();
  const tz = effectiveTimezone(storedTimezone());
  const current = mondayOf(Date.now(), tz);
  const latest = mondayOf(Date.now() - 7 * 86_400_000, tz);
  const asked = search.get('week');
  const week = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : latest;
  return (
    <Page titleKey="quality.title" actions={device.data && <Text fw={600}>{device.data.name}</Text>}>
      <QualityView
        deviceId={deviceId}
        week={week}
        latest={current}
        onWeek={(w) => setSearch({ week: w }, { replace: true })}
        pdf={<PdfButton deviceId={deviceId} week={week} />}
      />
    </Page>
  );
}
