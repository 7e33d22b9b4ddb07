import { Alert, Card, Group, MultiSelect, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { type DeviceListItem, SUM_COVERAGE_MIN, type SumComparisonRequest } from '@phasewatch/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FIELD_WIDTH, DateField } from '@/components/ui/date-field';
import { Segmented } from '@/components/ui/segmented';
import { formatChartValue } from '@/features/charts';
import { dateTimeFormat, numberFormat } from '@/lib/intl';
import { dateRange, isDate, periodPresets } from '../analytics-dates';
import { useSums } from '../api/post-sums';

type Mode = 'periods' | 'devices';
type Preset = 'monthVsLastMonth' | 'monthVsLastYear' | 'yearVsLastYear' | 'weekVsWeek' | 'custom';
const PRESETS = ['monthVsLastMonth', 'monthVsLastYear', 'yearVsLastYear', 'weekVsWeek', 'custom'] as const;
type Span = { from: string; to: string };

/**
 * The sum comparison: one device in two periods (this month vs the same month last year, …) or several
 * devices in one period, side by side, each with its difference from the first in kWh and %.
 */
export function SumsPanel({ devices, deviceId, timezone }: { devices: DeviceListItem[]; deviceId: number | null; timezone: string }) {
  const { t, i18n } = useTranslation();
  const presets = useMemo(() => periodPresets(Date.now(), timezone), [timezone]);
  const [mode, setMode] = useState<Mode>('periods');
  const [preset, setPreset] = useState<Preset>('monthVsLastMonth');
  const [custom, setCustom] = useState<[Span, Span]>([presets.monthVsLastYear[0], presets.monthVsLastYear[1]]);
  const [device, setDevice] = useState<string | null>(deviceId ? String(deviceId) : devices[0] ? String(devices[0].id) : null);
  const [many, setMany] = useState<string[]>(() => devices.slice(0, 2).map((d) => String(d.id)));
  const [period, setPeriod] = useState<Span>(presets.monthVsLastYear[0]);

  const spans: Span[] = mode === 'devices' ? [period] : preset === 'custom' ? custom : [...presets[preset]];
  const valid = spans.every((s) => isDate(s.from) && isDate(s.to) && s.from <= s.to);
  const toItem = (id: string, s: Span) => {
    const r = dateRange(s.from, s.to, timezone);
    return { deviceId: Number(id), from: String(r.from), to: String(r.to) };
  };
  let body: SumComparisonRequest | null = null;
  if (valid && mode === 'periods' && device) body = { items: spans.map((s) => toItem(device, s)) };
  if (valid && mode === 'devices' && many.length >= 2) body = { items: many.map((id) => toItem(id, period)) };
  const q = useSums(body);

  const value = (v: number | null, unit: string) => (v === null ? '—' : formatChartValue(v, unit, i18n.language));
  const pct = numberFormat(i18n.language, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  const share = numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  const max = Math.max(0, ...(q.data?.items.map((i) => Math.abs(i.value ?? 0)) ?? [0]));
  // A period as the user's language writes it ("1–27 lis 2026", "Nov 1 – 27, 2026"); dates are local calendar days.
  const dates = dateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const day = (d: string) => new Date(`${d}T00:00:00Z`);
  const dateLabel = (s: Span) =>
    !isDate(s.from) || !isDate(s.to)
      ? `${s.from} – ${s.to}`
      : s.from === s.to
        ? dates.format(day(s.from))
        : dates.formatRange(day(s.from), day(s.to));
  const labelOf = (i: number) => {
    const item = q.data?.items[i];
    if (!item) return '';
    return mode === 'devices' ? item.deviceName : dateLabel(spans[i] as Span);
  };

  type Item = NonNullable<typeof q.data>['items'][number];
  /** An item's difference from the reference (the first item), with why a percentage is left out. */
  const differenceText = (item: Item, i: number) => {
    if (i === 0) return t('analytics.sums.base');
    if (item.difference === null) return '—';
    const unit = q.data?.unit ?? '';
    const amount = `${item.difference > 0 ? '+' : ''}${value(item.difference, unit)}`;
    if (item.percent !== null) return `${amount} (${pct.format(item.percent)} %)`;
    return (
      <>
        {amount}
        {/* Its own lines (the amount above stays on one). */}
        <Text
          component="span"
          display="block"
          size="xs"
          c="dimmed"
          data-sum-no-percent
          maw={240}
          ml="auto"
          style={{ whiteSpace: 'normal' }}
        >
          {t('figures.sums.noPercent')}
        </Text>
      </>
    );
  };

  const spanInputs = (s: Span, set: (s: Span) => void, label: string, key: string) => (
    <Group key={key} gap="xs" align="flex-end" wrap="wrap">
      <DateField
        label={`${label} · ${t('analytics.from')}`}
        value={isDate(s.from) ? s.from : null}
        onChange={(v) => v && set({ ...s, from: v })}
        w={DATE_FIELD_WIDTH.sm}
        name={`${key}-from`}
      />
      <DateField
        label={t('analytics.to')}
        value={isDate(s.to) ? s.to : null}
        onChange={(v) => v && set({ ...s, to: v })}
        w={DATE_FIELD_WIDTH.sm}
        name={`${key}-to`}
      />
    </Group>
  );

  return (
    <Stack gap="md">
      <Card withBorder padding="md" data-print-hide>
        <Stack gap="sm">
          <Segmented
            aria-label={t('analytics.sums.mode')}
            value={mode}
            onChange={(v) => setMode(v as Mode)}
            data={[
              { value: 'periods', label: t('analytics.sums.periods') },
              { value: 'devices', label: t('analytics.sums.devices') },
            ]}
            data-sums-mode
          />
          {mode === 'periods' ? (
            <Group gap="md" align="flex-end" wrap="wrap">
              <Select
                label={t('analytics.device')}
                data={devices.map((d) => ({ value: String(d.id), label: d.name }))}
                value={device}
                onChange={setDevice}
                allowDeselect={false}
                searchable
                w={200}
                name="device"
              />
              <Select
                label={t('analytics.sums.compare')}
                data={PRESETS.map((p) => ({
                  value: p,
                  label: p === 'monthVsLastMonth' ? t('figures.sums.monthVsLastMonth') : t(`analytics.sums.presets.${p}`),
                }))}
                value={preset}
                onChange={(v) => v && setPreset(v as Preset)}
                allowDeselect={false}
                w={360}
                maw="100%"
                comboboxProps={{ width: 'max-content' }}
                name="preset"
              />
              {preset === 'custom' && (
                <>
                  {spanInputs(custom[0], (s) => setCustom([s, custom[1]]), 'A', 'a')}
                  {spanInputs(custom[1], (s) => setCustom([custom[0], s]), 'B', 'b')}
                </>
              )}
            </Group>
          ) : (
            <Group gap="md" align="flex-end" wrap="wrap">
              <MultiSelect
                label={t('analytics.devices')}
                data={devices.map((d) => ({ value: String(d.id), label: d.name }))}
                value={many}
                onChange={(v) => setMany(v.slice(0, 8))}
                maxValues={8}
                searchable
                w={320}
                name="devices"
              />
              {spanInputs(period, setPeriod, t('analytics.sums.period'), 'p')}
            </Group>
          )}
        </Stack>
      </Card>
      <Card withBorder padding="md" aria-busy={q.isFetching || undefined}>
        {!valid ? (
          <Alert color="yellow">{t('validation.dateOrder')}</Alert>
        ) : !body ? (
          <Text c="dimmed">{t(mode === 'devices' ? 'analytics.sums.pickTwo' : 'analytics.pickDevice')}</Text>
        ) : q.isError && !q.data ? (
          <Alert color="red">{t('analytics.loadError')}</Alert>
        ) : !q.data ? (
          <Skeleton h={120} role="status" aria-busy aria-label={t('app.loading')} />
        ) : (
          <Table verticalSpacing={6} fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }} data-sums-table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t(mode === 'devices' ? 'analytics.sums.device' : 'analytics.sums.period')}</Table.Th>
                <Table.Th ta="right">{t('analytics.sums.value')}</Table.Th>
                <Table.Th visibleFrom="xs" w="35%" />
                <Table.Th ta="right" visibleFrom="xs">
                  {t('analytics.sums.difference')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.items.map((item, i) => (
                <Table.Tr key={`${item.deviceId}-${item.from}`} data-sum-item={i}>
                  <Table.Td>
                    <Text size="sm" fw={i === 0 ? 600 : 400}>
                      {labelOf(i)}
                    </Text>
                    {mode === 'periods' && (
                      <Text size="xs" c="dimmed">
                        {item.deviceName}
                      </Text>
                    )}
                    <Text size="xs" c={item.coverage < SUM_COVERAGE_MIN ? 'orange.8' : 'dimmed'} data-sum-coverage={item.coverage}>
                      {t('figures.sums.coverage', { share: share.format(item.coverage) })}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-sum-value>
                    {value(item.value, q.data.unit)}
                    {/* On a phone the difference goes under the total: four columns ran off the card. */}
                    <Text component="div" size="xs" c="dimmed" hiddenFrom="xs" style={{ whiteSpace: 'normal' }}>
                      {differenceText(item, i)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="xs">
                    <div
                      aria-hidden
                      style={{
                        height: 10,
                        borderRadius: 3,
                        width: `${max > 0 ? (Math.abs(item.value ?? 0) / max) * 100 : 0}%`,
                        background: i === 0 ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-gray-6)',
                      }}
                    />
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} visibleFrom="xs" data-sum-difference>
                    {differenceText(item, i)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
    </Stack>
  );
}
