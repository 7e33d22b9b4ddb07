import { Alert, Button, Skeleton, Text } from '@mantine/core';
import { type Device, type DeviceKind, type DeviceListItem, deviceFigures, deviceKind, kindFigures } from '@phasewatch/shared';
import { IconChevronDown } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  ChartCard,
  type ChartSpec,
  chartsFor,
  chartsInFirstScreen,
  isSecondaryChart,
  preloadChart,
  useInView,
  useReadings,
} from '@/features/charts';
import { BALANCE_CARD_MIN_HEIGHT, loadBalanceCard } from '@/features/collectors';
import { withArea } from '@/i18n';
import { afterPaintWhenIdle } from '@/lib/after-paint';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone, parseServerDate } from '@/lib/dates';
import { loadChunk } from '@/lib/lazy-chunk';
import { usePhone } from '@/lib/use-phone';
import { LiveValuesCard } from '../components/live-values-card';
import { BaseLoadCard } from './base-load-card';
import { type RangeSelection, rangeOf, readSelection, writeSelection } from './chart-range';
import classes from './device-detail.module.css';
import { EnergyPanel } from './energy-panel';
import { RangeControls } from './range-controls';
import { SummaryPlaceholder } from './summary-placeholder';

export { DeviceToolbar } from './device-toolbar';

/**
 * Everything of a device's page below its heading: the range controls, the charts with the summary among
 * them, and the settings below. A chunk of its own (with the analytics and quality areas' texts its
 * toolbar uses), loaded beside the device: the heading — the page's largest text, what a phone's first
 * screen shows first — paints as soon as the device has answered, without waiting for this code.
 */
export function DeviceBody({
  deviceId,
  kind,
  device: d,
  listed,
}: {
  deviceId: number;
  kind: DeviceKind;
  device: Device | undefined;
  listed: DeviceListItem | undefined;
}) {
  // The chart code loads beside the device and its readings, not after them (the route's prefetch asks
  // for it too; this covers a page reached before that chunk).
  useEffect(() => {
    preloadChart().catch(() => {});
  }, []);
  const lastSeen = d?.lastSeen ?? listed?.lastSeen ?? null;
  return (
    <>
      <DeviceCharts
        deviceId={deviceId}
        kind={kind}
        ready={!!d || (!!listed && deviceKind(listed.typeCode) === kind)}
        lastSeen={lastSeen}
        limits={d ? d.limits : null}
        summary={d ? <DeviceSummary device={d} /> : <SummaryPlaceholder />}
        summaryShown={!!d}
      />
      {d && <DeferredSettings device={d} />}
    </>
  );
}

/** Live values, energy figures with the billing period, and the base load where the type has one. */
function DeviceSummary({ device: d }: { device: Device }) {
  const figures = deviceFigures(d.typeCode);
  const timezone = effectiveTimezone(storedTimezone());
  return (
    <>
      <LiveValuesCard device={d} />
      <EnergyPanel device={d} timezone={timezone} />
      {figures.baseLoad && <BaseLoadCard device={d} timezone={timezone} />}
      {hasBalance(d) && (
        <Suspense fallback={<Skeleton h={BALANCE_CARD_MIN_HEIGHT} radius="md" data-balance-placeholder />}>
          <BalanceChunk deviceId={d.id} timezone={timezone} />
        </Suspense>
      )}
    </>
  );
}

const HOUR = 3_600_000;

/**
 * The range controls, the charts of the chosen view and the summary among them (see the module's CSS:
 * the first chart, then the summary, then the rest). The charts need only the device's id and type
 * family; `ready` once the device is known to exist, so a wrong id asks for nothing but the device.
 */
function DeviceCharts({
  deviceId,
  kind,
  ready,
  lastSeen,
  limits,
  summary,
  summaryShown,
}: {
  deviceId: number;
  kind: DeviceKind;
  ready: boolean;
  /** The device's last reading (server UTC): the last 24 hours move back to it when they hold none. */
  lastSeen: string | null;
  limits: Device['limits'] | null;
  summary: ReactNode;
  /** The device's summary is drawn (not its loading placeholder): the charts are where they stay. */
  summaryShown: boolean;
}) {
  const { t } = useTranslation();
  const figures = kindFigures(kind);
  const timezone = effectiveTimezone(storedTimezone());
  const phone = usePhone();
  const [search, setSearch] = useSearchParams();
  const pending = useRef(search);
  useEffect(() => {
    pending.current = search;
  }, [search]);
  // "Now" moves on each full hour: the last 24 hours follow it (and "today" stays today).
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const h = window.setTimeout(() => setNow(Date.now()), Math.floor(now / HOUR) * HOUR + HOUR - Date.now() + 500);
    return () => window.clearTimeout(h);
  }, [now]);
  const lastReading = lastSeen ? (parseServerDate(lastSeen)?.getTime() ?? null) : null;
  // Kept across renders while the address stays (the page re-renders as its parts load; the charts and
  // the range controls are memoized on these).
  const sel = useMemo(() => readSelection(search, now, timezone), [search, now, timezone]);
  const range = useMemo(() => rangeOf(sel, timezone, now, lastReading), [sel, timezone, now, lastReading]);
  const chartRange = useMemo(() => ({ from: range.from, to: range.to, interval: range.interval }), [range.from, range.to, range.interval]);
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
  const present = useReadings(
    { deviceId, from: range.from, to: range.to, interval: '24h' },
    ready && figures.kind === 'generic' && !range.tooLong,
  );
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
  // On a phone the charts a phone user rarely needs (power factor, frequency, reactive energy) fold
  // under a button.
  const [moreShown, setMoreShown] = useState(false);
  const secondary = phone ? charts.filter((c, i) => i > 0 && isSecondaryChart(c)) : [];

  const card = (spec: ChartSpec, i: number) => (
    <ChartCard
      eager={i < eager}
      ready={ready}
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
  );

  let content: ReactNode;
  if (range.tooLong || range.reversed) {
    content = (
      <Alert color="yellow" variant="light" role="alert">
        {t(range.reversed ? 'validation.dateOrder' : 'messages.dateRangeTooLong')}
      </Alert>
    );
  } else if (charts.length === 0) {
    content = (
      <Text c="dimmed" data-no-charts>
        {present.isPending ? t('app.loading') : t('charts.empty')}
      </Text>
    );
  }

  return (
    <>
      <RangeControls sel={sel} range={range} figures={figures} timezone={timezone} now={now} onChange={onRangeChange} />
      {content ? (
        <>
          {content}
          <div className={classes.summary}>{summary}</div>
        </>
      ) : (
        <div className={classes.grid} data-charts>
          {charts.slice(0, 1).map(card)}
          <div className={classes.summary} data-summary>
            {summary}
          </div>
          {charts.map((spec, i) => (i === 0 || secondary.includes(spec) ? null : card(spec, i)))}
          {secondary.length > 0 && !moreShown && (
            <Button
              className={classes.more}
              variant="light"
              h="auto"
              py={8}
              styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
              rightSection={<IconChevronDown size={14} aria-hidden />}
              onClick={() => setMoreShown(true)}
              data-more-charts
            >
              {t('ux.moreCharts', { names: secondary.map((s) => chartTitle(t, s)).join(', ') })}
            </Button>
          )}
          {moreShown && secondary.map((spec) => card(spec, charts.indexOf(spec)))}
        </div>
      )}
    </>
  );
}

/** A chart's title as its card shows it. */
function chartTitle(t: (k: string, o?: Record<string, unknown>) => string, spec: ChartSpec): string {
  return t(`charts.title.${spec.id}`, { defaultValue: t(`charts.title.${spec.group}`) });
}

/** Balanced (netted) energy beside the per-phase sums, for devices whose readings carry it (a chunk of its own). */
const hasBalance = (d: Device) => d.latestReading?.values.balance !== undefined || d.latestReading?.values.balance_export !== undefined;
const BalanceChunk = lazy(() =>
  loadChunk(withArea('collectors', loadBalanceCard)).then((m) => ({
    default: m.BalanceCard,
  })),
);

const loadSettings = () => import('./device-settings');
const SettingsChunk = lazy(() => loadChunk(loadSettings).then((m) => ({ default: m.DeviceSettings })));

/**
 * Limit values, the meter value and delete, below the charts: their forms (and their chunk) are not part
 * of the first screen. They render when the browser is first idle after a paint (afterPaintWhenIdle, then a React
 * transition: rendered in slices that input and the charts' data interrupt), or at once when the user
 * scrolls near them.
 */
function DeferredSettings({ device }: { device: Device }) {
  const { t } = useTranslation();
  const [ref, near] = useInView<HTMLDivElement>('400px');
  const [idle, setIdle] = useState(false);
  useEffect(() => afterPaintWhenIdle(() => startTransition(() => setIdle(true))), []);
  const placeholder = <Skeleton h={240} role="status" aria-busy aria-label={t('app.loading')} />;
  if (!near && !idle) return <div ref={ref}>{placeholder}</div>;
  return (
    <Suspense fallback={placeholder}>
      <SettingsChunk device={device} />
    </Suspense>
  );
}
