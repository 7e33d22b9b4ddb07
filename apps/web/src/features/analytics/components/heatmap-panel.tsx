import { Alert, Card, Group, Select, Skeleton, Stack, Text } from '@mantine/core';
import { type DeviceListItem, deviceDetailPath, HEATMAP_KINDS, HEATMAP_MAX_DAYS, type HeatmapKind } from '@phasewatch/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DATE_FIELD_WIDTH, DateField } from '@/components/ui/date-field';
import { Segmented } from '@/components/ui/segmented';
import { useReadings } from '@/features/charts';
import { ApiError } from '@/lib/api-client';
import { parameterLabel } from '@/lib/quantities';
import { dateRange, defaultHeatmapRange, isDate, shiftDate } from '../analytics-dates';
import { useHeatmap } from '../api/get-heatmap';
import { cellSpan } from '../heatmap-model';
import { HeatmapChart } from './heatmap-chart';

const DAY = 86_400_000;

/** "When do I use the most energy": a device's heatmap of energy (or a parameter's mean) by kind and range. */
export function HeatmapPanel({
  devices,
  deviceId,
  onDevice,
  timezone,
}: {
  devices: DeviceListItem[];
  deviceId: number | null;
  onDevice(id: number): void;
  timezone: string;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [kind, setKind] = useState<HeatmapKind>('daily');
  const [range, setRange] = useState(() => defaultHeatmapRange('daily', Date.now(), timezone));
  const [parameter, setParameter] = useState('energy');
  const device = devices.find((d) => d.id === deviceId) ?? null;
  const valid = isDate(range.from) && isDate(range.to) && range.from <= range.to;
  const days = valid ? Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY) + 1 : 0;
  const tooLong = days > HEATMAP_MAX_DAYS[kind];
  const heatmap = useHeatmap({ deviceId: deviceId ?? 0, parameter, kind, from: range.from, to: range.to }, !!deviceId && valid && !tooLong);
  // The parameters to choose from: what the device sent in the range.
  const span = valid ? dateRange(range.from, range.to, timezone) : null;
  const present = useReadings(
    { deviceId: deviceId ?? 0, from: span?.from ?? 0, to: span?.to ?? 1, interval: '24h' },
    !!deviceId && !!span && !tooLong && span.to - span.from <= 20 * 366 * DAY,
  );
  const params = useMemo(() => Object.keys(present.data?.series ?? {}).filter((p) => p !== 'alarm'), [present.data]);

  const open = (r: number, c: number) => {
    if (!device || !heatmap.data) return;
    const h = heatmap.data;
    const path = deviceDetailPath(device.typeCode, device.id);
    const q = new URLSearchParams();
    const cell = cellSpan(h, r, c);
    if (h.kind === 'weekly' || !cell) {
      q.set('from', range.from);
      q.set('to', range.to);
      q.set('interval', '1h');
    } else if (h.kind === 'daily') {
      q.set('date', h.rows[r] ?? range.from);
      q.set('interval', '15m');
    } else if (h.kind === 'monthly') {
      q.set('date', `${h.rows[r]}-${h.columns[c]}`);
      q.set('interval', '15m');
    } else {
      const first = `${h.rows[r]}-${h.columns[c]}-01`;
      q.set('from', first);
      q.set('to', shiftDate(shiftDate(first, 32, timezone).slice(0, 8).concat('01'), -1, timezone));
      q.set('interval', '24h');
    }
    navigate(`${path}?${q}`);
  };

  let body: React.ReactNode;
  if (!deviceId) body = <Text c="dimmed">{t('analytics.pickDevice')}</Text>;
  else if (!valid) body = <Alert color="yellow">{t(range.from > range.to ? 'validation.dateOrder' : 'validation.dateRange')}</Alert>;
  else if (tooLong) body = <Alert color="yellow">{t('messages.dateRangeTooLong')}</Alert>;
  else if (heatmap.isError && !heatmap.data)
    body = (
      <Alert color="red" role="alert">
        {heatmap.error instanceof ApiError && heatmap.error.status === 400 ? t('messages.dateRangeTooLong') : t('analytics.loadError')}
      </Alert>
    );
  else if (!heatmap.data) body = <Skeleton h={320} role="status" aria-busy aria-label={t('app.loading')} />;
  else if (heatmap.data.values.every((row) => row.every((v) => v === null)))
    body = (
      <Text c="dimmed" data-heatmap-empty>
        {t('analytics.heatmap.empty')}
      </Text>
    );
  else body = <HeatmapChart data={heatmap.data} locale={i18n.language} timezone={timezone} onOpen={open} />;

  return (
    <Stack gap="md">
      <Card withBorder padding="md" data-print-hide>
        <Group gap="md" align="flex-end" wrap="wrap">
          <Select
            label={t('analytics.device')}
            data={devices.map((d) => ({ value: String(d.id), label: d.name }))}
            value={deviceId ? String(deviceId) : null}
            onChange={(v) => v && onDevice(Number(v))}
            allowDeselect={false}
            searchable
            w={200}
            name="device"
          />
          <Select
            label={t('analytics.heatmap.parameter')}
            data={[
              { value: 'energy', label: t('analytics.energy') },
              ...params.map((p) => ({ value: p, label: `${parameterLabel(t, p)} (${p})` })),
            ]}
            value={parameter}
            onChange={(v) => v && setParameter(v)}
            allowDeselect={false}
            searchable
            w={220}
            name="parameter"
          />
          <div style={{ maxWidth: '100%' }}>
            <Text size="sm" fw={500} mb={2}>
              {t('analytics.heatmap.kind')}
            </Text>
            <Segmented
              aria-label={t('analytics.heatmap.kind')}
              phoneColumns={2}
              value={kind}
              onChange={(v) => {
                const k = v as HeatmapKind;
                setKind(k);
                setRange(defaultHeatmapRange(k, Date.now(), timezone));
              }}
              data={HEATMAP_KINDS.map((k) => ({ value: k, label: t(`analytics.heatmap.kinds.${k}`) }))}
              data-heatmap-kind
            />
          </div>
          <Group gap="md" align="flex-end" wrap="wrap">
            <DateField
              label={t('analytics.from')}
              value={isDate(range.from) ? range.from : null}
              onChange={(v) => v && setRange((r) => ({ ...r, from: v }))}
              w={DATE_FIELD_WIDTH.sm}
              name="from"
            />
            <DateField
              label={t('analytics.to')}
              value={isDate(range.to) ? range.to : null}
              onChange={(v) => v && setRange((r) => ({ ...r, to: v }))}
              w={DATE_FIELD_WIDTH.sm}
              name="to"
            />
          </Group>
        </Group>
      </Card>
      <Card withBorder padding="md" aria-busy={heatmap.isFetching || undefined}>
        <Text fw={600} mb="xs">
          {t(`analytics.heatmap.title.${kind}`, { name: device?.name ?? '' })}
          {heatmap.data?.unit ? (
            <Text span c="dimmed" size="sm" fw={400}>
              {' '}
              [{heatmap.data.unit}]
            </Text>
          ) : null}
        </Text>
        {body}
        <Text size="xs" c="dimmed" mt="xs" data-print-hide>
          {t('analytics.heatmap.hint')}
        </Text>
      </Card>
    </Stack>
  );
}
