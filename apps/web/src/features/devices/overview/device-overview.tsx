import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type Device, deviceDetailPath, deviceFigures, deviceKind, NOMINAL_VOLTAGE, WEAK_SIGNAL_DBM } from '@phasewatch/shared';
import { IconChartLine, IconEdit, IconWifi, IconWifi1, IconWifi2, IconWifiOff } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useReadings } from '@/features/charts';
import { loadCollectorCard } from '@/features/collectors';
import { useLiveMeasurements } from '@/features/realtime';
import { withArea } from '@/i18n';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { dateTimeFormat } from '@/lib/intl';
import { formatQuantity } from '@/lib/quantities';
import { useDeviceEnergy } from '../api/get-device-energy';
import { DeviceStatusBadge, useDeviceStatus } from '../components/device-status';
import { ReadingAge } from '../components/reading-age';
import { deviceTypeLabel } from '../device-labels';
import { newestReading } from '../live-reading';
import { headlineValue } from '../live-values';
import { sparkDots, sparkParameters, sparkPath, sparkSeries } from './sparkline-data';

const DAY_MS = 86_400_000;

/** How Phasewatch reads a collected device (nothing for one that sends by itself): a chunk of its own. */
const CollectorChunk = lazy(() => withArea('collectors', loadCollectorCard)().then((m) => ({ default: m.CollectorCard })));
const SPARK_W = 600;
const SPARK_H = 90;

/** Signal quality of an RSSI (dBm) in four steps; `WEAK_SIGNAL_DBM` and below is weak. */
export function signalLevel(rssi: number): 'excellent' | 'good' | 'fair' | 'weak' {
  if (rssi <= WEAK_SIGNAL_DBM) return 'weak';
  if (rssi >= -55) return 'excellent';
  if (rssi >= -67) return 'good';
  return 'fair';
}

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div data-overview={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}

/**
 * `/device/overview/{id}`: the page a user would screenshot — status, signal, last reading, energy of
 * today, this month and this year, the last 24 hours as a sparkline (plain SVG, no chart library),
 * limit values, location and tariff.
 */
export function DeviceOverview({ device: d }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const kind = deviceKind(d.typeCode);
  const figures = deviceFigures(d.typeCode);
  const live = useLiveMeasurements(d.id);
  const { online, weakSignal } = useDeviceStatus(d);
  const reading = newestReading(live.latest, d.latestReading);
  const head = headlineValue(kind, reading?.values);
  const energy = useDeviceEnergy(d.id);
  const tz = effectiveTimezone(storedTimezone());
  const locale = i18n.language;
  const kwh = (v: number) => formatQuantity(v, 'kWh', locale);
  const rssi = typeof reading?.values.rssi === 'number' ? reading.values.rssi : d.rssi;

  const lastTime = reading ? dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: tz }).format(reading.ts) : null;
  const SignalIcon =
    rssi === null ? IconWifiOff : { excellent: IconWifi, good: IconWifi, fair: IconWifi2, weak: IconWifi1 }[signalLevel(rssi)];

  return (
    <Stack gap="md" data-device-overview={d.id}>
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start" gap="md">
          <div style={{ minWidth: 0 }}>
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {d.name}
            </Title>
            <Text size="sm" c="dimmed">
              {[d.friendlyName, deviceTypeLabel(t, d), d.model, `MAC ${d.mac}`].filter(Boolean).join(' · ')}
            </Text>
          </div>
          <div style={{ textAlign: 'right' }}>
            <Text
              fz={34}
              fw={700}
              lh={1.1}
              c={!online || weakSignal ? 'dimmed' : undefined}
              style={{ fontVariantNumeric: 'tabular-nums' }}
              data-overview-headline
            >
              {head ? formatQuantity(head.value, head.unit, locale) : '—'}
            </Text>
            <Text size="xs" c="dimmed" data-overview-headline-label>
              {/* Offline, the figure is the last one the device sent, not what it does now. */}
              {online
                ? t(kind === 'thermostat' ? 'overview.temperatureNow' : 'overview.powerNow')
                : t(kind === 'thermostat' ? 'figures.overview.lastTemperature' : 'figures.overview.lastPower')}
            </Text>
          </div>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 3 }} mt="md" spacing="md">
          <Stat label={t('overview.status')} testId="status">
            <Group gap="xs" mt={4}>
              <DeviceStatusBadge device={d} />
              <Text size="sm" c="dimmed">
                {online ? t('overview.sending') : t('overview.silent')}
              </Text>
            </Group>
          </Stat>
          <Stat label={t('overview.signal')} testId="signal">
            <Group gap={6} mt={4} wrap="nowrap">
              <SignalIcon size={20} aria-hidden />
              <Text size="sm" fw={600}>
                {rssi === null
                  ? t('overview.noSignal')
                  : `${formatQuantity(rssi, 'dBm', locale)} · ${t(`overview.signalLevel.${signalLevel(rssi)}`)}`}
              </Text>
            </Group>
            {weakSignal && (
              <Text size="xs" c="dimmed">
                {t('dashboard.weakSignal')}
              </Text>
            )}
          </Stat>
          <Stat label={t('overview.lastReading')} testId="last-reading">
            <Text size="sm" fw={600} mt={4}>
              {lastTime ?? t('overview.never')}
            </Text>
            {reading && <ReadingAge ts={reading.ts} size="xs" c="dimmed" />}
          </Stat>
        </SimpleGrid>
      </Card>

      <Suspense fallback={null}>
        <CollectorChunk deviceId={d.id} />
      </Suspense>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t(`overview.energy.${figures.energy.meaning}`)}
          </Title>
          {energy.isPending ? (
            <Skeleton h={60} />
          ) : energy.isError ? (
            <Text c="dimmed">{t('device.energy.error')}</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
              {(['today', 'month', 'year'] as const).map((span) => (
                <Stat key={span} label={t(`device.energy.${span}`)} testId={`energy-${span}`}>
                  <Text fw={700} size="lg" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                    {kwh(energy.data[span].energyKwh)}
                  </Text>
                </Stat>
              ))}
            </SimpleGrid>
          )}
          {energy.isSuccess && (
            <Text size="sm" c="dimmed" mt="sm" data-overview-total>
              {t('overview.total', { value: kwh(energy.data.total) })}
            </Text>
          )}
          {energy.isSuccess && d.meterValueKwh > 0 && (
            <Text size="xs" c="dimmed" data-overview-since-added>
              {t('figures.overview.sinceAdded', { value: kwh(Math.max(0, energy.data.total - d.meterValueKwh)) })}
            </Text>
          )}
        </Card>
        <Last24Hours device={d} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {figures.limits && (
          <Card withBorder padding="lg" data-overview="limits">
            <Title order={2} size="h4" mb="sm">
              {t('overview.limits')}
            </Title>
            <Stack gap={4}>
              {(['warningLevel', 'criticalLevel'] as const).map((level) => {
                const pct = d.limits[level];
                const low = formatQuantity(NOMINAL_VOLTAGE * (1 - pct / 100), 'V', locale);
                const high = formatQuantity(NOMINAL_VOLTAGE * (1 + pct / 100), 'V', locale);
                return (
                  <Text key={level} size="sm">
                    <Text span fw={600}>
                      {t(`overview.${level}`)}
                    </Text>
                    {` ${formatQuantity(pct, '', locale)} % · ${low} – ${high}`}
                  </Text>
                );
              })}
            </Stack>
          </Card>
        )}
        <Card withBorder padding="lg" data-overview="place">
          <Title order={2} size="h4" mb="sm">
            {t('overview.place')}
          </Title>
          <Stack gap={4}>
            <Text size="sm">
              <Text span fw={600}>
                {t('dashboard.location')}
              </Text>
              {` ${d.location?.name ?? '—'}`}
            </Text>
            <Text size="sm">
              <Text span fw={600}>
                {t('dashboard.tariff')}
              </Text>
              {` ${d.tariff?.name ?? '—'}`}
            </Text>
            {!d.location && !d.tariff && (
              <Text size="xs" c="dimmed">
                {t('overview.noPlace')}
              </Text>
            )}
          </Stack>
        </Card>
      </SimpleGrid>

      <Group gap="sm">
        <Button component={Link} to={deviceDetailPath(d.typeCode, d.id)} leftSection={<IconChartLine size={18} />}>
          {t('overview.details')}
        </Button>
        <Button component={Link} to={paths.editDevice(d.id)} variant="default" leftSection={<IconEdit size={18} />}>
          {t('dashboard.edit')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The last 24 hours of the device's headline figure in 15-minute buckets, as a small SVG line. */
function Last24Hours({ device: d }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const kind = deviceKind(d.typeCode);
  // The window is fixed when the page opens (a new one on the next visit).
  const [to] = useState(() => Math.ceil(Date.now() / 60_000) * 60_000);
  const readings = useReadings({ deviceId: d.id, from: to - DAY_MS, to, interval: '15m', params: sparkParameters(kind) });
  const series = readings.data ? sparkSeries(readings.data, kind) : null;
  const fmt = (v: number | null) => (v === null || !series ? '—' : formatQuantity(v, series.unit, i18n.language));
  // Each value at its time of the 24 hours: a device with 4 minutes of data draws 4 minutes (a point or a short line).
  const place = series ? { ts: series.ts, from: to - DAY_MS, to } : undefined;
  const path = series ? sparkPath(series.values, SPARK_W, SPARK_H, place) : '';
  const dots = series ? sparkDots(series.values, SPARK_W, SPARK_H, place) : '';
  const label = t(kind === 'thermostat' ? 'overview.sparkTemperature' : 'overview.sparkPower');
  const hour = (ms: number) =>
    dateTimeFormat(i18n.language, {
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: effectiveTimezone(storedTimezone()),
    }).format(ms);
  const summary = series ? t('overview.sparkSummary', { min: fmt(series.min), mean: fmt(series.mean), max: fmt(series.max) }) : '';
  return (
    <Card withBorder padding="lg" data-overview="sparkline">
      <Title order={2} size="h4" mb="sm">
        {label}
      </Title>
      {readings.isPending ? (
        <Skeleton h={SPARK_H} />
      ) : !path ? (
        <Text c="dimmed" size="sm">
          {t('overview.sparkEmpty')}
        </Text>
      ) : (
        <>
          <svg
            viewBox={`0 0 ${SPARK_W} ${SPARK_H}`}
            width="100%"
            height={SPARK_H}
            preserveAspectRatio="none"
            role="img"
            aria-label={`${label}: ${summary}`}
            style={{ display: 'block' }}
          >
            <path d={path} fill="none" stroke="var(--mantine-primary-color-filled)" strokeWidth={2} vectorEffect="non-scaling-stroke" />
            {/* A lone reading is a dot (a line needs two). */}
            {dots && (
              <path
                d={dots}
                stroke="var(--mantine-primary-color-filled)"
                strokeWidth={7}
                strokeLinecap="round"
                vectorEffect="non-scaling-stroke"
                data-spark-dots
              />
            )}
          </svg>
          <Group justify="space-between" gap="xs" mt={4}>
            <Text size="xs" c="dimmed">
              {hour(to - DAY_MS)}
            </Text>
            <Text size="xs" c="dimmed">
              {hour(to)}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            {summary}
          </Text>
        </>
      )}
    </Card>
  );
}
