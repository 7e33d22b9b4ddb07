import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Grid,
  Group,
  NavLink,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  useComputedColorScheme,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  COMPARISON_MAX_SERIES,
  type Comparison,
  type ComparisonSeries,
  comparisonRequestSchema,
  type DeviceListItem,
  localDate,
  PARAMETERS,
} from '@phasewatch/shared';
import { IconDeviceFloppy, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FIELD_WIDTH, DateField } from '@/components/ui/date-field';
import { formatChartValue, readingsQueryOptions } from '@/features/charts';
import { autoInterval } from '@/features/devices';
import { loadChunk } from '@/lib/lazy-chunk';
import { parameterLabel } from '@/lib/quantities';
import { dateRange, isDate, shiftDate } from '../analytics-dates';
import { useComparisons, useDeleteComparison, useSaveComparison } from '../api/comparisons';
import { alignSeries, SERIES_COLORS, seriesParams, seriesUnit, seriesValues } from '../comparison-data';

const ComparisonChart = lazy(() => loadChunk(() => import('./comparison-chart')));

/** A series being edited, with a key of its row that stays while rows above it are removed. */
type Row = ComparisonSeries & { key: number };

interface Draft {
  id: number | null;
  name: string;
  series: Row[];
}

let rowKeys = 0;
const rows = (series: readonly ComparisonSeries[]): Row[] =>
  series.map((s) => ({ deviceId: s.deviceId, parameter: s.parameter, key: ++rowKeys }));
const plain = (series: readonly Row[]): ComparisonSeries[] => series.map((s) => ({ deviceId: s.deviceId, parameter: s.parameter }));
const draftOf = (c: Comparison): Draft => ({ id: c.id, name: c.name, series: rows(c.series) });

const emptyDraft = (devices: DeviceListItem[]): Draft => ({
  id: null,
  name: '',
  series: rows(devices[0] ? [{ deviceId: devices[0].id, parameter: 'energy' }] : []),
});

/**
 * User-defined comparisons (spec sections 2, 3, 5, 8): a name (3–30 characters) and a set of series
 * (device + parameter), drawn grouped on one chart with a value axis per unit; saved on the server,
 * listed, renamed, changed and deleted. A save the server refuses shows "Error saving comparations"
 * and the view goes back to what the server holds.
 */
export function ComparisonsPanel({ devices, timezone }: { devices: DeviceListItem[]; timezone: string }) {
  const { t, i18n } = useTranslation();
  const dark = useComputedColorScheme('light') === 'dark';
  const list = useComparisons();
  const save = useSaveComparison();
  const remove = useDeleteComparison();
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(devices));
  const [errors, setErrors] = useState<{ name?: string; series?: string }>({});
  const today = localDate(Date.now(), timezone);
  const [from, setFrom] = useState(shiftDate(today, -6, timezone));
  const [to, setTo] = useState(today);

  // The first saved comparison is shown once the list arrives (when nothing is being edited yet).
  const first = list.data?.[0];
  useEffect(() => {
    if (first) setDraft((d) => (d.id === null && d.name === '' ? draftOf(first) : d));
  }, [first]);

  const select = (c: Comparison | null) => {
    setErrors({});
    setDraft(c ? draftOf(c) : emptyDraft(devices));
  };

  const onSave = () => {
    const parsed = comparisonRequestSchema.safeParse({ name: draft.name, series: plain(draft.series) });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const f = issue.path[0] === 'name' ? 'name' : 'series';
        next[f] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    const id = draft.id;
    save.mutate(
      { id, body: parsed.data },
      {
        onSuccess: (saved) => {
          setDraft(draftOf(saved));
          notifications.show({ color: 'teal', message: t('messages.dataSaved') });
        },
        onError: () => {
          notifications.show({ color: 'red', message: t('messages.comparisonsSaveFailed') });
          // The view reverts to what the server holds (the list is asked again by the mutation).
          const held = id === null ? null : list.data?.find((c) => c.id === id);
          if (held) setDraft(draftOf(held));
        },
      },
    );
  };

  const valid = isDate(from) && isDate(to) && from <= to;
  const span = valid ? dateRange(from, to, timezone) : null;
  const interval = span ? autoInterval(span.to - span.from) : '1h';
  const typeOf = useCallback((id: number) => devices.find((d) => d.id === id)?.typeCode ?? 13, [devices]);
  const shown = useMemo(() => draft.series.filter((s) => devices.some((d) => d.id === s.deviceId)), [draft.series, devices]);
  const spanPair = useMemo((): [number, number] => [span?.from ?? 0, span?.to ?? 1], [span?.from, span?.to]);
  const results = useQueries({
    queries: shown.map((s) => ({
      ...readingsQueryOptions({
        deviceId: s.deviceId,
        from: span?.from ?? 0,
        to: span?.to ?? 1,
        interval,
        params: seriesParams(s, typeOf(s.deviceId)),
      }),
      enabled: !!span && span.to - span.from <= 366 * 86_400_000,
    })),
  });
  const loaded = results.every((r) => r.data);
  // The answers' arrival times: the chart's data is rebuilt when one of them changes, not on every render.
  const stamp = results.map((r) => r.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stamp` stands for the answers in `results`
  const chart = useMemo(() => {
    if (!loaded || shown.length === 0) return null;
    const aligned = alignSeries(
      shown.map((s, i) => {
        const res = results[i]?.data;
        return res ? { ts: res.ts, values: seriesValues(s, typeOf(s.deviceId), res) } : { ts: [], values: [] };
      }),
    );
    return {
      ts: aligned.ts,
      series: shown.map((s, i) => ({
        label: `${devices.find((d) => d.id === s.deviceId)?.name ?? s.deviceId} · ${s.parameter === 'energy' ? t('analytics.energy') : parameterLabel(t, s.parameter)}`,
        unit: seriesUnit(s),
        color: SERIES_COLORS[i % SERIES_COLORS.length] as string,
        values: aligned.values[i] ?? [],
      })),
    };
  }, [loaded, stamp, shown, devices, t]);
  const formatValue = useCallback((v: number, unit: string) => formatChartValue(v, unit, i18n.language), [i18n.language]);

  const paramOptions = useMemo(
    () => [
      { value: 'energy', label: t('analytics.energy') },
      ...PARAMETERS.filter((p) => p.name !== 'alarm').map((p) => ({ value: p.name, label: `${parameterLabel(t, p.name)} (${p.name})` })),
    ],
    [t],
  );

  const setSeries = (i: number, patch: Partial<ComparisonSeries>) =>
    setDraft((d) => ({ ...d, series: d.series.map((s, k) => (k === i ? { ...s, ...patch } : s)) }));

  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, md: 3 }} data-print-hide>
        <Card withBorder padding="sm">
          <Text fw={600} size="sm" mb="xs">
            {t('analytics.comparisons.saved')}
          </Text>
          {list.isPending ? (
            <Skeleton h={80} />
          ) : (
            <Stack gap={2} data-comparison-list>
              {(list.data ?? []).length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('analytics.comparisons.none')}
                </Text>
              )}
              {(list.data ?? []).map((c) => (
                <NavLink key={c.id} label={c.name} active={draft.id === c.id} onClick={() => select(c)} data-comparison={c.id} />
              ))}
              <Button
                variant="light"
                size="xs"
                mt="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => select(null)}
                data-new-comparison
              >
                {t('analytics.comparisons.new')}
              </Button>
            </Stack>
          )}
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>
        <Stack gap="md">
          <Card withBorder padding="md" data-print-hide>
            <Stack gap="sm">
              <TextInput
                label={t('analytics.comparisons.name')}
                value={draft.name}
                onChange={(e) => {
                  const name = e.currentTarget.value;
                  setDraft((d) => ({ ...d, name }));
                  if (errors.name)
                    setErrors((x) => ({ ...x, name: comparisonRequestSchema.shape.name.safeParse(name).error?.issues[0]?.message }));
                }}
                onBlur={() =>
                  setErrors((x) => ({ ...x, name: comparisonRequestSchema.shape.name.safeParse(draft.name).error?.issues[0]?.message }))
                }
                error={errors.name ? t(errors.name) : undefined}
                required
                maxLength={40}
                name="comparisonName"
              />
              <Text size="sm" fw={500}>
                {t('analytics.comparisons.series')}
              </Text>
              {draft.series.map((s, i) => (
                <Group key={s.key} gap="xs" wrap="wrap" align="flex-end" data-series-row={i}>
                  <span
                    style={{
                      width: 12,
                      height: 12,
                      borderRadius: 3,
                      background: SERIES_COLORS[i % SERIES_COLORS.length],
                      marginBottom: 10,
                    }}
                    aria-hidden
                  />
                  <Select
                    aria-label={t('analytics.device')}
                    data={devices.map((d) => ({ value: String(d.id), label: d.name }))}
                    value={String(s.deviceId)}
                    onChange={(v) => v && setSeries(i, { deviceId: Number(v) })}
                    allowDeselect={false}
                    searchable
                    w={180}
                  />
                  <Select
                    aria-label={t('analytics.comparisons.parameter')}
                    data={paramOptions}
                    value={s.parameter}
                    onChange={(v) => v && setSeries(i, { parameter: v })}
                    allowDeselect={false}
                    searchable
                    w={230}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    mb={4}
                    aria-label={t('analytics.comparisons.removeSeries')}
                    onClick={() => setDraft((d) => ({ ...d, series: d.series.filter((_, k) => k !== i) }))}
                  >
                    <IconX size={16} />
                  </ActionIcon>
                </Group>
              ))}
              {errors.series && (
                <Text c="red" size="sm" role="alert">
                  {t(errors.series)}
                </Text>
              )}
              <Group justify="space-between" wrap="wrap">
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconPlus size={14} />}
                  disabled={draft.series.length >= COMPARISON_MAX_SERIES || devices.length === 0}
                  onClick={() =>
                    setDraft((d) => ({ ...d, series: [...d.series, ...rows([{ deviceId: devices[0]?.id ?? 0, parameter: 'vave1' }])] }))
                  }
                  data-add-series
                >
                  {t('analytics.comparisons.addSeries')}
                </Button>
                <Group gap="xs">
                  {draft.id !== null && (
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      leftSection={<IconTrash size={14} />}
                      onClick={() => {
                        const id = draft.id as number;
                        remove.mutate(id, {
                          onError: () => notifications.show({ color: 'red', message: t('messages.comparisonsSaveFailed') }),
                        });
                        select(null);
                      }}
                      data-delete-comparison
                    >
                      {t('analytics.comparisons.delete')}
                    </Button>
                  )}
                  <Button
                    size="xs"
                    leftSection={<IconDeviceFloppy size={14} />}
                    onClick={onSave}
                    loading={save.isPending}
                    data-save-comparison
                  >
                    {t(draft.id === null ? 'analytics.comparisons.save' : 'analytics.comparisons.update')}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </Card>
          <Card withBorder padding="md">
            <Group justify="space-between" mb="xs" wrap="wrap">
              <Text fw={600}>{draft.name || t('analytics.comparisons.untitled')}</Text>
              <Group gap="xs" data-print-hide>
                <DateField
                  accessibleLabel={t('analytics.from')}
                  value={isDate(from) ? from : null}
                  onChange={(v) => v && setFrom(v)}
                  w={DATE_FIELD_WIDTH.xs}
                  size="xs"
                  name="from"
                />
                <DateField
                  accessibleLabel={t('analytics.to')}
                  value={isDate(to) ? to : null}
                  onChange={(v) => v && setTo(v)}
                  w={DATE_FIELD_WIDTH.xs}
                  size="xs"
                  name="to"
                />
              </Group>
            </Group>
            {!span ? (
              <Alert color="yellow">{t('validation.dateOrder')}</Alert>
            ) : span.to - span.from > 366 * 86_400_000 ? (
              <Alert color="yellow">{t('messages.dateRangeTooLong')}</Alert>
            ) : shown.length === 0 ? (
              <Text c="dimmed">{t('analytics.comparisons.noSeries')}</Text>
            ) : !chart ? (
              <Skeleton h={320} role="status" aria-busy aria-label={t('app.loading')} />
            ) : (
              <Suspense fallback={<Skeleton h={320} />}>
                <ComparisonChart
                  timeLabel={t('analytics.table.time')}
                  ts={chart.ts}
                  series={chart.series}
                  span={spanPair}
                  timezone={timezone}
                  locale={i18n.language}
                  dark={dark}
                  formatValue={formatValue}
                />
              </Suspense>
            )}
          </Card>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
