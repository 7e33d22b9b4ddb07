import { Alert, Badge, Button, Skeleton, Stack, Text } from '@mantine/core';
import { type Device, type DeviceKind, type DeviceListItem, deviceDetailPath, deviceKind } from '@phasewatch/shared';
import { IconArrowLeft, IconWifiOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { Page } from '@/components/page';
import { paths } from '@/config/paths';
import { withArea } from '@/i18n';
import { usePaintedOnce } from '@/lib/after-paint';
import { ApiError } from '@/lib/api-client';
import { devicesQueryOptions } from '@/lib/devices-query';
import { loadChunk } from '@/lib/lazy-chunk';
import { useDevice } from '../api/get-device';
import { useDeviceStatus } from '../components/device-status';
import { deviceTypeLabel } from '../device-labels';
import classes from './device-detail.module.css';
import { runDeferredDevicePrefetch } from './prefetch-loader';
import { SummaryPlaceholder } from './summary-placeholder';

/**
 * The page below its heading and its toolbar: a chunk of their own, with the areas' texts they use (the
 * toolbar's export button is the analytics area's, its power-quality link the quality area's). Asked for
 * once the heading has painted.
 */
const loadBody = withArea(['analytics', 'quality'], () => import('./device-body'));
const DeviceBody = lazy(() => loadChunk(loadBody).then((m) => ({ default: m.DeviceBody })));
const DeviceToolbar = lazy(() => loadChunk(loadBody).then((m) => ({ default: m.DeviceToolbar })));

/** The device as the dashboard's list (already loaded when the user came from there) knows it. */
function useListedDevice(id: number): DeviceListItem | undefined {
  const client = useQueryClient();
  return client.getQueryData(devicesQueryOptions().queryKey)?.find((d) => d.id === id);
}

/**
 * A device's detail screen (spec section 2, "Device detail features"), one layout for every type with
 * what the type shows (`deviceFigures`). Its first screen is its data: the range controls and the first
 * chart of recent data at the top, the live values, energy figures (billing period) and the base load
 * beside it on wide screens and below it on narrow ones, then the other charts, limit values, the meter
 * value and delete. A device that does not exist costs one request and says so, with a way back.
 */
export function DeviceDetail({ kind }: { kind: DeviceKind }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const location = useLocation();
  const deviceId = Number(id);
  const valid = Number.isInteger(deviceId) && deviceId > 0;
  const device = useDevice(deviceId, valid);
  const listed = useListedDevice(deviceId);
  // The heading (name, status, type and model) is painted on its own first; the toolbar, the range controls,
  // the charts and the figures — their own chunk, asked for then — render right after. Their code and first
  // render are most of the page's CPU, and a phone showed the heading only once all of it was done (the
  // page's Largest Contentful Paint). Their data is asked for by the route's prefetch (a page reached by its
  // address starts it here, once the heading has painted).
  const headingPainted = usePaintedOnce(device.isSuccess || device.isError || !valid);
  useEffect(() => {
    if (headingPainted && valid) runDeferredDevicePrefetch(deviceId);
  }, [headingPainted, valid, deviceId]);

  let body: ReactNode;
  if (!valid || (device.isError && device.error instanceof ApiError && device.error.status === 404)) {
    body = <DeviceNotFound />;
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
    const d = device.data;
    body = (
      <>
        {d ? <DeviceHeading device={d} /> : <Skeleton h={28} w={280} role="status" aria-busy aria-label={t('app.loading')} />}
        {headingPainted ? (
          <Suspense fallback={<SummaryPlaceholder />}>
            <DeviceBody deviceId={deviceId} kind={kind} device={d} listed={listed} />
          </Suspense>
        ) : (
          <SummaryPlaceholder />
        )}
      </>
    );
  }
  const shown = device.data && deviceKind(device.data.typeCode) === kind ? device.data : undefined;
  return (
    <Page
      titleKey="titles.deviceData"
      actions={
        shown &&
        (headingPainted ? (
          <Suspense fallback={<ToolbarPlaceholder />}>
            <DeviceToolbar device={shown} />
          </Suspense>
        ) : (
          <ToolbarPlaceholder />
        ))
      }
    >
      {body}
    </Page>
  );
}

/**
 * The toolbar's place while its chunk loads: its height and about its width (four small buttons; on a
 * phone the power-quality link is an icon), so that the title's line wraps as it will with the buttons.
 */
function ToolbarPlaceholder() {
  return <Skeleton h={30} w={{ base: 300, xs: 440 }} radius="sm" data-toolbar-placeholder />;
}

/** A device id that names no device of the user's: the 404 text of spec section 8 and the way back. */
function DeviceNotFound() {
  const { t } = useTranslation();
  return (
    <Stack align="flex-start" gap="md" data-device-not-found>
      <Alert color="gray" variant="light" role="alert" title={t('errors.notFound')}>
        {t('device.notFound')}
      </Alert>
      <Button component={Link} to={paths.dashboard} leftSection={<IconArrowLeft size={16} aria-hidden />}>
        {t('ux.backToDevices')}
      </Button>
    </Stack>
  );
}

/** Name, status (live), type and model. */
function DeviceHeading({ device: d }: { device: Device }) {
  const { t } = useTranslation();
  const { online, weakSignal } = useDeviceStatus(d);
  return (
    <div className={classes.head}>
      <Text fw={700} size="lg" component="h2" m={0} style={{ overflowWrap: 'anywhere' }}>
        {d.name}
      </Text>
      <Badge color={online ? 'teal' : 'gray'} variant="light" data-device-status={d.id}>
        {t(online ? 'dashboard.online' : 'dashboard.offline')}
      </Badge>
      {weakSignal && <IconWifiOff size={16} aria-label={t('dashboard.weakSignal')} role="img" />}
      <Text c="dimmed" size="sm" data-device-type={d.id}>
        {[d.model, deviceTypeLabel(t, d)].filter(Boolean).join(' · ')}
      </Text>
    </div>
  );
}
