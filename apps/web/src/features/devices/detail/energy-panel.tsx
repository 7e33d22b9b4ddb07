import { Button, Card, Group, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { billingPeriod, type Device, deviceFigures } from '@phasewatch/shared';
import { IconBolt } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReadings } from '@/features/charts';
import { effectiveTimezone } from '@/lib/dates';
import { dateTimeFormat } from '@/lib/intl';
import { formatQuantity } from '@/lib/quantities';
import { useDeviceEnergy } from '../api/get-device-energy';

const FIGURES = ['today', 'month', 'year', 'total'] as const;
const PERIODS_BACK = 12;

/** The current billing period and the ones before it, newest first. */
export function billingPeriods(
  now: number,
  tz: string,
  start: string,
  months: number,
  count = PERIODS_BACK,
): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let at = now;
  for (let i = 0; i < count; i++) {
    const p = billingPeriod(at, tz, start, months);
    if (out.some((o) => o.start === p.start)) break;
    out.push(p);
    at = p.start - 1;
  }
  return out;
}

/** Energy of a past billing period: the daily energy of the figures' counters, summed. */
function usePeriodEnergy(deviceId: number, source: string | undefined, period: { start: number; end: number } | null) {
  const params = source && source !== 'none' ? source.split('+') : [];
  const q = useReadings(
    { deviceId, from: period?.start ?? 0, to: Math.min(period?.end ?? 1, Date.now()), interval: '24h', params },
    !!period && params.length > 0 && period.start < Date.now(),
  );
  const kwh = useMemo(() => {
    if (!q.data || q.isPlaceholderData) return null;
    let sum = 0;
    for (const s of Object.values(q.data.series)) if (s.kind === 'counter') for (const d of s.delta) sum += d ?? 0;
    return sum;
  }, [q.data, q.isPlaceholderData]);
  return { kwh, loading: q.isFetching || (!!period && q.isPending && params.length > 0) };
}

/**
 * The energy figures of a device as its type defines them (consumption, production or heating): today,
 * this month, this year, the total with the meter value, and a billing period the user picks.
 */
export function EnergyPanel({ device, timezone }: { device: Device; timezone: string }) {
  const { t, i18n } = useTranslation();
  const figures = deviceFigures(device.typeCode);
  const energy = useDeviceEnergy(device.id);
  const tz = effectiveTimezone(energy.data?.timezone ?? timezone);
  const periods = useMemo(
    () => billingPeriods(Date.now(), tz, device.billingStartDate, device.billingPeriodMonths),
    [tz, device.billingStartDate, device.billingPeriodMonths],
  );
  const [picked, setPicked] = useState('0');
  const index = Number(picked);
  const period = periods[index] ?? null;
  const past = usePeriodEnergy(device.id, energy.data?.source, index > 0 ? period : null);
  const dateFmt = dateTimeFormat(i18n.language, { timeZone: tz, dateStyle: 'medium' });
  const label = (p: { start: number; end: number }) => `${dateFmt.format(p.start)} – ${dateFmt.format(p.end - 1)}`;
  const kwh = (v: number) => formatQuantity(v, 'kWh', i18n.language);

  let body: ReactNode;
  if (energy.isPending) {
    body = (
      <SimpleGrid cols={2} role="status" aria-busy aria-label={t('app.loading')}>
        {FIGURES.map((f) => (
          <Skeleton key={f} h={48} />
        ))}
      </SimpleGrid>
    );
  } else if (energy.isError) {
    body = (
      <Stack align="flex-start" gap="xs">
        <Text c="red" role="alert">
          {t('device.energy.error')}
        </Text>
        <Button size="xs" variant="light" onClick={() => void energy.refetch()}>
          {t('errors.retry')}
        </Button>
      </Stack>
    );
  } else {
    const e = energy.data;
    const values: Record<(typeof FIGURES)[number], number> = {
      today: e.today.energyKwh,
      month: e.month.energyKwh,
      year: e.year.energyKwh,
      total: e.total,
    };
    const billing = index === 0 ? e.billingPeriod.energyKwh : past.kwh;
    body = (
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm" verticalSpacing="sm">
          {FIGURES.map((f) => (
            <div key={f} data-energy={f}>
              <Text size="xs" c="dimmed">
                {t(`device.energy.${f}`)}
              </Text>
              <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                {kwh(values[f])}
              </Text>
            </div>
          ))}
        </SimpleGrid>
        {e.meterValueKwh > 0 && (
          <Text size="xs" c="dimmed">
            {t('device.energy.totalHint', { value: kwh(e.meterValueKwh) })}
          </Text>
        )}
        <Group data-energy="billing" gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('detail.billing.label')}
            data={periods.map((p, i) => ({
              value: String(i),
              label: i === 0 ? t('detail.billing.current', { range: label(p) }) : label(p),
            }))}
            value={picked}
            onChange={(v) => setPicked(v ?? '0')}
            allowDeselect={false}
            size="xs"
            style={{ flex: '1 1 220px' }}
            comboboxProps={{ zIndex: 300 }}
          />
          <Text fw={700} mb={4} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-billing-value>
            {billing === null ? (past.loading ? '…' : '—') : kwh(billing)}
          </Text>
        </Group>
        {e.source === 'none' && (
          <Text size="xs" c="dimmed">
            {t('detail.energyNoCounter')}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Card withBorder padding="md" data-energy-card>
      <Group gap="xs" mb="sm">
        <IconBolt size={20} color="var(--mantine-color-brand-6)" aria-hidden />
        <Title order={2} size="h4">
          {t(`detail.energyTitle.${figures.energy.meaning}`)}
        </Title>
      </Group>
      {body}
    </Card>
  );
}
