import { Alert, Badge, Button, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { type Device, type DeviceKind, deviceDetailPath, deviceFigures, deviceKind, kindFigures } from '@phasewatch/shared';
import { IconEdit, IconEye, IconWifiOff } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import { paths } from '@/config/paths';
import { useReadings } from '@/features/charts/api/get-readings';
import { preloadChart } from '@/features/charts/chart-module';
import { chartsFor, chartsInFirstScreen } from '@/features/charts/chart-specs';
import { ChartCard } from '@/features/charts/components/chart-card';
import { useInView } from '@/features/charts/use-in-view';
import { useLiveDeviceStatus } from '@/features/realtime/use-live-measurements';
import { ApiError } from '@/lib/api-client';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { loadChunk } from '@/lib/lazy-chunk';
import { useDevice } from '../api/get-device';
import { LiveValuesCard } from '../components/live-values-card';
import { BaseLoadCard } from './base-load-card';
import { type RangeSelection, rangeOf, readSelection, writeSelection } from './chart-range';
import { EnergyPanel } from './energy-panel';
import { RangeControls } from './range-controls';

/**
 * A device's detail screen (spec section 2, "Device detail features"), one layout for every type with
 * what the type shows (`deviceFigures`): live values, energy figures with the billing period, the base
 * load, the charts of the chosen view and range, limit values, the meter value and delete.
 */
export function DeviceDetail({ kind }: { kind: DeviceKind }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const location = useLocation();
  const deviceId = Number(id);
  const valid = Number.isInteger(deviceId) && deviceId > 0;
  const device = useDevice(deviceId, valid);
  // The chart code loads beside the device and its readings, not after them.
  useEffect(() => {
    preloadChart().catch(() => {});
  }, []);

  let body: ReactNode;
  if (!valid || (device.isError && device.error instanceof ApiError && device.error.status === 404)) {
    body = (
      <Alert color="gray" variant="light" role="alert">
        {t('device.notFound')}
      </Alert>
    );
  } else if (device.isError) {
    body = (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {t('device.loadError')}
        </Alert>
        <Button onClick={() => void device.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  } else if (device.data && deviceKind(device.data.typeCode) !== kind) {
    // A link to another type's route: the device's own route shows it.
    return <Navigate to={`${deviceDetailPath(device.data.typeCode, device.data.id)}${location.search}`} replace />;
  } else {
    // The route names the type family: its charts ask for their readings while the device itself loads.
    const d = device.data;
    body = (
      <>
        {d ? (
          <DeviceSummary device={d} />
        ) : (
          <Stack role="status" aria-busy aria-label={t('app.loading')}>
            <Skeleton h={28} w={240} />
            <SimpleGrid cols={{ base: 1, md: 3 }}>
              <Skeleton h={200} />
              <Skeleton h={200} />
              <Skeleton h={200} />
            </SimpleGrid>
          </Stack>
        )}
        <DeviceCharts deviceId={deviceId} kind={kind} limits={d ? d.limits : null} summaryShown={!!d} />
        {d && <DeferredSettings device={d} />}
      </>
    );
  }
  return <Page titleKey="titles.deviceData">{body}</Page>;
}

/** Name, status, type and links; live values, energy figures and the base load. */
function DeviceSummary({ device: d }: { device: Device }) {
  const { t } = useTranslation();
  const figures = deviceFigures(d.typeCode);
  const timezone = effectiveTimezone(storedTimezone());
  const liveStatus = useLiveDeviceStatus(d.id);
  const online = (liveStatus?.status ?? d.status) === 'online';
  const weak = liveStatus?.weakSignal ?? d.weakSignal;
  return (
    <>
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <Text fw={700} size="lg" component="h2" m={0}>
            {d.name}
          </Text>
          <Badge color={online ? 'teal' : 'gray'} variant="light" data-device-status={d.id}>
            {t(online ? 'dashboard.online' : 'dashboard.offline')}
          </Badge>
          {weak && <IconWifiOff size={16} aria-label={t('dashboard.weakSignal')} />}
          <Text c="dimmed" size="sm">
            {[d.model, t(`detail.kind.${figures.kind}`)].filter(Boolean).join(' · ')}
          </Text>
        </Group>
        <Group gap="xs">
          <Button component={Link} to={paths.deviceOverview(d.id)} variant="default" size="xs" leftSection={<IconEye size={16} />}>
            {t('dashboard.overview')}
          </Button>
          <Button component={Link} to={paths.editDevice(d.id)} variant="default" size="xs" leftSection={<IconEdit size={16} />}>
            {t('dashboard.edit')}
          </Button>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2, lg: figures.baseLoad ? 3 : 2 }}>
        <LiveValuesCard device={d} />
        <EnergyPanel device={d} timezone={timezone} />
        {figures.baseLoad && <BaseLoadCard device={d} />}
      </SimpleGrid>
      {hasBalance(d) && (
        <Suspense fallback={null}>
          <BalanceChunk deviceId={d.id} timezone={timezone} />
        </Suspense>
      )}
    </>
  );
}

/** The range controls and the charts of the chosen view; they need only the device's id and type family. */
function DeviceCharts({
  deviceId,
  kind,
  limits,
  summaryShown,
}: {
  deviceId: number;
  kind: DeviceKind;
  limits: Device['limits'] | null;
  /** The device's summary is drawn above (not its loading placeholder): the charts are where they stay. */
  summaryShown: boolean;
}) {
  const { t } = useTranslation();
  const figures = kindFigures(kind);
  const timezone = effectiveTimezone(storedTimezone());
  const [search, setSearch] = useSearchParams();
  const pending = useRef(search);
  useEffect(() => {
    pending.current = search;
  }, [search]);
  // Kept across renders while the address stays (the page re-renders as its parts load; the charts and
  // the range controls are memoized on these).
  const sel = useMemo(() => readSelection(search, Date.now(), timezone), [search, timezone]);
  const range = useMemo(() => rangeOf(sel, timezone), [sel, timezone]);
  const chartRange = useMemo(() => ({ from: range.from, to: range.to, interval: range.interval }), [range]);
  const onRangeChange = useCallback(
    (update: (cur: RangeSelection) => RangeSelection) => {
      // React Router's updater sees the params of the last render, not a queued change: two quick
      // edits (from, then to) would lose the first. The latest asked-for params are kept here.
      const next = writeSelection(update(readSelection(pending.current, Date.now(), timezone)));
      pending.current = next;
      setSearch(next, { replace: true, preventScrollReset: true });
    },
    [setSearch, timezone],
  );

  // The default detail charts what the device sent in the range: one light daily request tells which.
  const present = useReadings({ deviceId, from: range.from, to: range.to, interval: '24h' }, figures.kind === 'generic' && !range.tooLong);
  const sent = useMemo(
    () =>
      Object.entries(present.data?.series ?? {})
        .filter(([, s]) => (s.kind === 'counter' ? s.delta : s.kind === 'raw' ? s.values : s.avg).some((v) => v !== null))
        .map(([p]) => p),
    [present.data],
  );
  // Kept across renders: a chart card rebuilds its data (and redraws) when its spec changes.
  const view = figures.phaseViews.length ? sel.view : 'summary';
  const charts = useMemo(() => chartsFor(figures, view, sent), [figures, view, sent]);
  // The charts the route's prefetch asked for (the first screen's) draw at once; the others when they
  // come near the viewport, looked for once the summary and the first charts are in place (before, the
  // placeholders above them are of other heights and would bring them "near" for a moment).
  const [eager] = useState(chartsInFirstScreen);
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(() => new Set());
  const onLoaded = useCallback((id: string) => setLoaded((s) => (s.has(id) ? s : new Set(s).add(id))), []);
  const [settled, setSettled] = useState(false);
  const firstLoaded = charts.slice(0, eager).every((spec) => loaded.has(spec.id));
  useEffect(() => {
    if (summaryShown && firstLoaded) setSettled(true);
  }, [summaryShown, firstLoaded]);

  return (
    <>
      <RangeControls sel={sel} interval={range.interval} figures={figures} timezone={timezone} onChange={onRangeChange} />
      {range.tooLong || range.reversed ? (
        <Alert color="yellow" variant="light" role="alert">
          {t(range.reversed ? 'validation.dateOrder' : 'messages.dateRangeTooLong')}
        </Alert>
      ) : charts.length === 0 ? (
        <Text c="dimmed" data-no-charts>
          {present.isPending ? t('app.loading') : t('charts.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} data-charts>
          {charts.map((spec, i) => (
            <ChartCard
              eager={i < eager}
              observe={settled}
              onLoaded={i < eager ? onLoaded : undefined}
              key={`${spec.id}-${String(sel.view)}`}
              deviceId={deviceId}
              spec={spec}
              range={chartRange}
              timezone={timezone}
              limits={figures.limits ? limits : null}
              compare={sel.compare}
            />
          ))}
        </SimpleGrid>
      )}
    </>
  );
}

/** Balanced (netted) energy beside the per-phase sums, for devices whose readings carry it (a chunk of its own). */
const hasBalance = (d: Device) => d.latestReading?.values.balance !== undefined || d.latestReading?.values.balance_export !== undefined;
const BalanceChunk = lazy(() =>
  loadChunk(() => import('@/features/collectors/components/balance-card')).then((m) => ({ default: m.BalanceCard })),
);

const loadSettings = () => import('./device-settings');
const SettingsChunk = lazy(() => loadChunk(loadSettings).then((m) => ({ default: m.DeviceSettings })));

/**
 * Limit values, the meter value and delete, below the charts: their forms (and their chunk) are not part
 * of the first screen. They render when the browser is first idle (requestIdleCallback, then a React
 * transition: rendered in slices that input and the charts' data interrupt), or at once when the user
 * scrolls near them.
 */
function DeferredSettings({ device }: { device: Device }) {
  const { t } = useTranslation();
  const [ref, near] = useInView<HTMLDivElement>('400px');
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const go = () => startTransition(() => setIdle(true));
    if (typeof window.requestIdleCallback === 'function') {
      const h = window.requestIdleCallback(go, { timeout: 2000 });
      return () => window.cancelIdleCallback(h);
    }
    const h = window.setTimeout(go, 200);
    return () => window.clearTimeout(h);
  }, []);
  const placeholder = <Skeleton h={240} role="status" aria-busy aria-label={t('app.loading')} />;
  if (!near && !idle) return <div ref={ref}>{placeholder}</div>;
  return (
    <Suspense fallback={placeholder}>
      <SettingsChunk device={device} />
    </Suspense>
  );
}
