import { Card, Group, Skeleton, Text, Title } from '@mantine/core';
import { type Device, deviceKind } from '@phasewatch/shared';
import { IconPlugConnected } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { baseLoad, sumColumns, useReadings } from '@/features/charts';
import { numberFormat } from '@/lib/intl';
import { formatQuantity } from '@/lib/quantities';
import { baseLoadCoverage, baseLoadRequest, baseLoadSample, partialCoverage } from './base-load';

/**
 * "Always on": the power a device draws even at its quietest — the 5th percentile of its 15-minute mean
 * power over the last 7 days — in W and what it costs in a year (kWh). A device with less than a week
 * of readings says how much the figure rests on; a meter that sends energy out (solar behind it) is read
 * at night only, and says so (`baseLoadSample`).
 */
export function BaseLoadCard({ device, timezone }: { device: Pick<Device, 'id' | 'typeCode'>; timezone: string }) {
  const { t, i18n } = useTranslation();
  const q = useReadings(baseLoadRequest(device.id, deviceKind(device.typeCode)));
  const figure = useMemo(() => {
    if (!q.data) return null;
    const s = q.data.series;
    const col = (p: string) => {
      const x = s[p];
      return x?.kind === 'instant' ? x.avg : x?.kind === 'raw' ? x.values : null;
    };
    const total = col('power3phases');
    const power = total?.some((v) => v !== null) ? total : sumColumns(['pave1', 'pave2', 'pave3'].map(col).filter((c) => c !== null));
    const sample = baseLoadSample(q.data.ts, power, timezone);
    const b = baseLoad(sample.power);
    return b && { ...b, nightOnly: sample.nightOnly, partial: partialCoverage(baseLoadCoverage(power)) };
  }, [q.data, timezone]);

  return (
    <Card withBorder padding="md" data-base-load>
      <Group gap="xs" mb="xs">
        <IconPlugConnected size={20} color="var(--mantine-color-brand-6)" aria-hidden />
        <Title order={2} size="h4">
          {t('detail.baseLoad.title')}
        </Title>
      </Group>
      {q.isPending ? (
        <Skeleton h={48} role="status" aria-busy aria-label={t('app.loading')} />
      ) : figure ? (
        <>
          <Group gap="sm" align="baseline" wrap="wrap">
            <Text fw={700} fz={24} lh={1.2} style={{ fontVariantNumeric: 'tabular-nums' }} data-base-load-watts>
              {formatQuantity(figure.watts, 'W', i18n.language)}
            </Text>
            <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {t('detail.baseLoad.perYear', { value: formatQuantity(figure.kwhPerYear, 'kWh', i18n.language) })}
            </Text>
          </Group>
          {figure.partial && (
            <Text size="xs" fw={600} mt={6} data-base-load-partial>
              {t('detail.baseLoad.partial', {
                span: numberFormat(i18n.language, { style: 'unit', unit: figure.partial.unit, unitDisplay: 'long' }).format(
                  figure.partial.value,
                ),
              })}
            </Text>
          )}
          <Text size="xs" c="dimmed" mt={4}>
            {t('detail.baseLoad.hint')}
          </Text>
          {figure.nightOnly && (
            <Text size="xs" c="dimmed" mt={4} data-base-load-night>
              {t('detail.baseLoad.nightOnly')}
            </Text>
          )}
        </>
      ) : (
        <Text c="dimmed" size="sm">
          {t('detail.baseLoad.empty')}
        </Text>
      )}
    </Card>
  );
}
