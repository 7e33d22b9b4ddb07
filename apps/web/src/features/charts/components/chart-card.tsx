import { Alert, Button, Card, Group, Skeleton, Stack, Text, Title, useComputedColorScheme } from '@mantine/core';
import type { LiveMeasurement, ReadingInterval, ReadingsResponse } from '@phasewatch/shared';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '@/components/ui/segmented';
import { useLiveMeasurements } from '@/features/realtime';
import { parameterLabel } from '@/lib/quantities';
import { useReadings } from '../api/get-readings';
import {
  buildChartData,
  type ChartData,
  type ComparePeriod,
  compareOffset,
  emptyLiveState,
  type LiveState,
  mergeLive,
  withPrevious,
} from '../chart-data';
import { useChartComponent } from '../chart-module';
import { type ChartSpec, chartParams } from '../chart-specs';
import { bucketFormatter, formatChartValue } from '../format';
import { useInView } from '../use-in-view';
import { ReadingsTable } from './readings-table';

export interface ChartRange {
  from: number;
  to: number;
  interval: Exclude<ReadingInterval, 'raw'>;
}

export interface ChartCardProps {
  deviceId: number;
  spec: ChartSpec;
  range: ChartRange;
  timezone: string;
  limits: { warningLevel: number; criticalLevel: number } | null;
  compare: ComparePeriod;
  height?: number;
  /** A chart of the first screen: asks for its readings and draws without waiting for the viewport. */
  eager?: boolean;
  /** False until the device is known to exist: nothing is asked for a device id that names none. */
  ready?: boolean;
  /** False while the page above the chart is still loading (its height not yet final): not "near" yet. */
  observe?: boolean;
  /** Called once the chart has its data (the page then lets the charts further down load). */
  onLoaded?: (id: string) => void;
}

/** The newest value of the chart's first series (a page test watches pushed readings move it). */
function lastValue(data: ChartData | null): string {
  const vs = data?.columns[0]?.values;
  for (let i = (vs?.length ?? 0) - 1; i >= 0; i--) if (vs?.[i] != null) return `${data?.ts[i]}:${vs[i]}`;
  return '';
}

interface Merged {
  base: ReadingsResponse;
  res: ReadingsResponse;
  state: LiveState;
  seen: LiveMeasurement | null;
}

/**
 * One chart of a device page: asks for its own parameters only, once it comes near the viewport (the
 * first screen's at once); merges the hub's pushed readings in without refetching; switches between the
 * chart and a table of the same numbers. Energy charts can draw the same span a day / week / year earlier
 * behind. Until it comes near, a card is its title and a placeholder of the chart's height. Memoized:
 * the page re-renders as its other parts load, and a card re-renders only when its own props change.
 */
export const ChartCard = memo(function ChartCard({
  deviceId,
  spec,
  range,
  timezone,
  limits,
  compare,
  height = 240,
  eager = false,
  ready = true,
  observe = true,
  onLoaded,
}: ChartCardProps) {
  const { t, i18n } = useTranslation();
  const dark = useComputedColorScheme('light') === 'dark';
  const [ref, inView] = useInView<HTMLDivElement>('200px', eager, observe);
  const [mode, setMode] = useState<'chart' | 'table'>('chart');
  const params = useMemo(() => chartParams(spec), [spec]);
  const readings = useReadings({ deviceId, ...range, params }, inView && ready);
  const UplotChart = useChartComponent(inView);
  const offset = spec.comparable ? compareOffset(compare, range.from) : 0;
  const prev = useReadings(
    { deviceId, from: range.from - offset, to: range.to - offset, interval: range.interval, params },
    inView && ready && offset > 0,
  );

  // Pushed readings after the answer arrived are merged into it (the first one seen is already in it).
  const live = useLiveMeasurements(deviceId);
  const [merged, setMerged] = useState<Merged | null>(null);
  const loaded = readings.data;
  const latest = useRef(live.latest);
  latest.current = live.latest;
  useEffect(() => {
    if (loaded) setMerged({ base: loaded, res: loaded, state: emptyLiveState(), seen: latest.current });
  }, [loaded]);
  useEffect(() => {
    const m = live.latest;
    setMerged((cur) => {
      if (!cur || !m || m === cur.seen) return cur;
      const next = mergeLive(cur.res, m, cur.state);
      return { ...cur, res: next.res, state: next.state, seen: m };
    });
  }, [live.latest]);

  const res = merged && merged.base === loaded ? merged.res : loaded;
  const current = useMemo(() => (res ? buildChartData(res, spec) : null), [res, spec]);
  const compared = useMemo(() => {
    if (!current || !prev.data || offset === 0 || prev.isPlaceholderData) return null;
    return withPrevious(current, buildChartData(prev.data, spec), offset);
  }, [current, prev.data, prev.isPlaceholderData, offset, spec]);
  const data = compared?.data ?? current;
  const hasData = data !== null;
  useEffect(() => {
    if (hasData) onLoaded?.(spec.id);
  }, [hasData, onLoaded, spec.id]);
  const previous = compared?.previous ?? null;

  const labels = useMemo(
    () =>
      (data?.columns ?? []).map((c) => {
        const name = parameterLabel(t, c.spec.param);
        return c.spec.stat ? t(`charts.stat.${c.spec.stat}`, { name }) : name;
      }),
    [data, t],
  );
  const formatValue = (v: number, unit: string) => formatChartValue(v, unit, i18n.language);
  const formatBucket = useMemo(() => bucketFormatter(range.interval, i18n.language, timezone), [range.interval, i18n.language, timezone]);
  const title = t(`charts.title.${spec.id}`, { defaultValue: t(`charts.title.${spec.group}`) });
  const unit = spec.unit ? ` [${spec.unit}]` : '';

  // A parameter the device never sends in the range: its optional chart is left out altogether.
  if (spec.optional && data && data.columns.length === 0 && !readings.isFetching) return null;

  let body: React.ReactNode;
  if (!inView || (readings.isPending && !data)) {
    body = <Skeleton h={height + 28} role="status" aria-busy aria-label={t('app.loading')} />;
  } else if (readings.isError && !data) {
    body = (
      <Stack align="flex-start" gap="xs" h={height} justify="center">
        <Alert color="red" variant="light" role="alert">
          {t(readings.error.message, { defaultValue: t('charts.loadError') })}
        </Alert>
        <Button size="xs" variant="light" onClick={() => void readings.refetch()}>
          {t('errors.retry')}
        </Button>
      </Stack>
    );
  } else if (!data || data.columns.length === 0) {
    body = (
      <Text c="dimmed" size="sm" h={height} py="xl" ta="center" data-chart-empty>
        {t('charts.empty')}
      </Text>
    );
  } else if (mode === 'table') {
    body = <ReadingsTable data={data} labels={labels} formatValue={formatValue} formatBucket={formatBucket} caption={`${title}${unit}`} />;
  } else if (!UplotChart) {
    body = <Skeleton h={height + 28} role="status" aria-busy aria-label={t('app.loading')} />;
  } else {
    body = (
      <UplotChart
        spec={spec}
        data={data}
        previous={previous}
        labels={labels}
        span={[range.from, range.to]}
        interval={range.interval}
        timezone={timezone}
        locale={i18n.language}
        dark={dark}
        limits={limits}
        height={height}
        formatValue={formatValue}
        formatBucket={formatBucket}
      />
    );
  }

  return (
    <Card
      withBorder
      padding="md"
      ref={ref}
      data-chart={spec.id}
      data-bucket-count={data?.ts.length ?? ''}
      data-last-value={lastValue(data)}
      data-range={res ? `${res.from}-${res.to}-${res.interval}` : ''}
      data-loading={readings.isFetching || undefined}
      aria-busy={readings.isFetching || undefined}
      style={{ minWidth: 0 }}
    >
      <Group justify="space-between" mb="xs" gap="xs" wrap="wrap">
        <Title order={3} size="h5">
          {title}
          {unit && (
            <Text span c="dimmed" size="sm" fw={400}>
              {unit}
            </Text>
          )}
        </Title>
        {inView && (
          <Segmented
            size="xs"
            value={mode}
            onChange={setMode}
            data={[
              { value: 'chart', label: t('charts.viewChart') },
              { value: 'table', label: t('charts.viewTable') },
            ]}
            aria-label={t('charts.viewAs', { title })}
          />
        )}
      </Group>
      {body}
    </Card>
  );
});
