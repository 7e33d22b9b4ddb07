import { ActionIcon, Alert, Anchor, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { type DeviceListItem, deviceDetailPath, deviceKind } from '@phasewatch/shared';
import { IconDevices, IconEdit, IconEye, IconPlus } from '@tabler/icons-react';
import { type KeyboardEvent, lazy, type MouseEvent, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { SearchBox } from '@/components/ui/search-box';
import { paths } from '@/config/paths';
import { useLiveMeasurements } from '@/features/realtime';
import { withArea } from '@/i18n';
import { useAuth } from '@/lib/auth-store';
import { useDevices } from '@/lib/devices-query';
import { errorTexts } from '@/lib/error-text';
import { formatQuantity } from '@/lib/quantities';
import { usePhone } from '@/lib/use-phone';
import { announceDeviceState } from '../device-alerts';
import { deviceTypeLabel } from '../device-labels';
import { newestReading } from '../live-reading';
import { headlineValue } from '../live-values';
import classes from './device-list.module.css';
import { DeviceStatusBadge, useDeviceStatus } from './device-status';
import { EnergyTotal } from './energy-total';
import { ReadingAge } from './reading-age';

// The add-device flow (forms, schemas, the stepper) loads when it is opened, not with the dashboard.
// Its first step, how readings arrive, is the collectors area's.
const AddDeviceModal = lazy(() =>
  withArea(['collectors', 'tariffs'], () => import('./add-device/add-device-modal'))().then((m) => ({ default: m.AddDeviceModal })),
);

/**
 * The dashboard's device list: name, model, status, live value, actions, location, tariff, total (spec
 * section 2); cards on phones. Each shown device watches its stream on the hub: the live value and the
 * online status follow the pushed readings and status events without refetching the list. A device
 * that goes offline or has a weak signal is told once as a toast (spec section 8).
 */
export function DeviceList() {
  const devices = useDevices();
  const [query, setQuery] = useState('');
  const [adding, setAdding] = useState(false);
  const phone = usePhone();
  const [addOpened, setAddOpened] = useState(false);
  const addModal = addOpened && (
    <Suspense fallback={null}>
      <AddDeviceModal opened={adding} onClose={() => setAdding(false)} />
    </Suspense>
  );
  const openAdd = () => {
    setAddOpened(true);
    setAdding(true);
  };

  // The dialog stays at one place in the tree whatever the list shows: adding the first device swaps the
  // empty state for the list, which must not remount (and reset) the open flow.
  return (
    <>
      <ListBody devices={devices} query={query} setQuery={setQuery} phone={phone} openAdd={openAdd} />
      {addModal}
    </>
  );
}

function ListBody({
  devices,
  query,
  setQuery,
  phone,
  openAdd,
}: {
  devices: ReturnType<typeof useDevices>;
  query: string;
  setQuery(q: string): void;
  phone: boolean;
  openAdd(): void;
}) {
  const { t } = useTranslation();
  if (devices.isPending) {
    return (
      <Stack aria-busy aria-label={t('app.loading')}>
        {[1, 2, 3].map((i) => (
          <Skeleton key={i} h={40} />
        ))}
      </Stack>
    );
  }
  if (devices.isError) {
    return (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {t(errorTexts(devices.error)[0] ?? 'errors.generic')}
        </Alert>
        <Button onClick={() => void devices.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  }
  if (devices.data.length === 0) {
    return (
      <Card withBorder padding="xl">
        <Stack align="center" gap="xs" py="lg">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconDevices size={30} />
          </ThemeIcon>
          <Text fw={600} size="lg">
            {t('dashboard.empty')}
          </Text>
          <Text c="dimmed" size="sm" ta="center" maw={480}>
            {t('dashboard.emptyHint')}
          </Text>
          <Button mt="sm" leftSection={<IconPlus size={18} />} onClick={openAdd}>
            {t('dashboard.addFirst')}
          </Button>
        </Stack>
      </Card>
    );
  }

  const q = query.toLowerCase();
  const rows = q
    ? devices.data.filter((d) => `${d.name} ${d.friendlyName} ${d.model} ${d.location?.name ?? ''}`.toLowerCase().includes(q))
    : devices.data;

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <SearchBox
          style={{ flex: '1 1 220px', maxWidth: phone ? undefined : 320 }}
          placeholder={t('dashboard.searchPlaceholder')}
          onSearch={setQuery}
          onClear={() => setQuery('')}
        />
        <Button leftSection={<IconPlus size={18} />} onClick={openAdd}>
          {t('dashboard.addDevice')}
        </Button>
      </Group>
      {devices.data.map((d) => (
        <DeviceAlert key={d.id} device={d} />
      ))}
      {rows.length === 0 ? (
        <Text c="dimmed">{t('dashboard.noMatches', { query })}</Text>
      ) : phone ? (
        <Stack gap="sm" data-device-cards>
          {rows.map((d) => (
            <DeviceCard key={d.id} device={d} />
          ))}
        </Stack>
      ) : (
        // A plain table styled like Mantine's: its Table component carries ScrollArea and a positioning
        // library into the first chunk (bench/dashboard-weight.bench.ts).
        <div className={classes.scroll}>
          <table className={classes.table}>
            <thead>
              <tr>
                <th>{t('dashboard.name')}</th>
                <th>{t('dashboard.model')}</th>
                <th>{t('dashboard.status')}</th>
                <th className={classes.right}>{t('dashboard.liveValue')}</th>
                <th>{t('dashboard.actions')}</th>
                <th>{t('dashboard.location')}</th>
                <th>{t('dashboard.tariff')}</th>
                <th className={classes.right}>{t('dashboard.total')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <DeviceRow key={d.id} device={d} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Stack>
  );
}

/**
 * The figure a row shows live: total power, single-phase power or temperature, with its age ticking
 * ("3 sec. ago"). Until the hub pushes a reading it shows the device's last stored one, which the list
 * answer carries (a dash for a device that never sent any). An offline device's (or one with a weak
 * signal) figure is dimmed: it is the last one it sent, not a live value.
 */
export function LiveValue({ device }: { device: Pick<DeviceListItem, 'id' | 'typeCode' | 'latestReading' | 'status' | 'weakSignal'> }) {
  const { i18n } = useTranslation();
  const { latest } = useLiveMeasurements(device.id);
  const { online, weakSignal } = useDeviceStatus(device);
  const reading = newestReading(latest, device.latestReading);
  const head = headlineValue(deviceKind(device.typeCode), reading?.values);
  const stale = !online || weakSignal;
  return (
    <span className={classes.live} data-stale={(head && stale) || undefined}>
      <Text component="span" fw={600} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-live-value={device.id}>
        {head ? formatQuantity(head.value, head.unit, i18n.language) : '—'}
      </Text>
      {reading && <ReadingAge ts={reading.ts} length="short" size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} />}
    </span>
  );
}

/** Tells a device's offline state or weak signal as a toast, once (see device-alerts.ts). */
function DeviceAlert({ device }: { device: DeviceListItem }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { online, weakSignal } = useDeviceStatus(device);
  const everSeen = device.lastSeen !== null || device.latestReading !== null;
  const userId = user?.id ?? 0;
  useEffect(() => {
    announceDeviceState(t, userId, { id: device.id, name: device.name, offline: !online, weakSignal, everSeen });
  }, [t, userId, device.id, device.name, online, weakSignal, everSeen]);
  return null;
}

/** Whether a click or key press came from a control inside the row (a link or button handles it). */
const fromControl = (e: MouseEvent | KeyboardEvent) => (e.target as HTMLElement).closest('a, button, input') !== null;

/** Opening a device by its row or card: a click anywhere on it, or Enter when it has the focus. */
function useOpenDevice(device: DeviceListItem) {
  const navigate = useNavigate();
  const to = deviceDetailPath(device.typeCode, device.id);
  return {
    to,
    onClick: (e: MouseEvent) => {
      if (!fromControl(e) && !window.getSelection()?.toString()) navigate(to);
    },
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' && !fromControl(e)) navigate(to);
    },
  };
}

function Actions({ device: d }: { device: DeviceListItem }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon component={Link} to={paths.deviceOverview(d.id)} variant="subtle" aria-label={`${t('dashboard.overview')}: ${d.name}`}>
        <IconEye size={18} />
      </ActionIcon>
      <ActionIcon component={Link} to={paths.editDevice(d.id)} variant="subtle" aria-label={`${t('dashboard.edit')}: ${d.name}`}>
        <IconEdit size={18} />
      </ActionIcon>
    </Group>
  );
}

function DeviceRow({ device: d }: { device: DeviceListItem }) {
  const { t } = useTranslation();
  const open = useOpenDevice(d);
  return (
    <tr className={classes.clickable} tabIndex={0} onClick={open.onClick} onKeyDown={open.onKeyDown} data-device-row={d.id}>
      <td>
        {/* The row is the keyboard stop that opens the device; the link serves pointer and link lists. */}
        <Anchor component={Link} to={open.to} fw={600} tabIndex={-1}>
          {d.name}
        </Anchor>
        {d.friendlyName && d.friendlyName !== d.name && (
          <Text size="xs" c="dimmed">
            {d.friendlyName}
          </Text>
        )}
      </td>
      <td>
        <Text size="sm">{d.model || '—'}</Text>
        <Text size="xs" c="dimmed" data-device-type={d.id}>
          {deviceTypeLabel(t, d)}
        </Text>
      </td>
      <td>
        <DeviceStatusBadge device={d} />
      </td>
      <td className={classes.right}>
        <LiveValue device={d} />
      </td>
      <td>
        <Actions device={d} />
      </td>
      <td>{d.location?.name ?? '—'}</td>
      <td>{d.tariff?.name ?? '—'}</td>
      <td className={classes.right} style={{ fontVariantNumeric: 'tabular-nums' }}>
        <EnergyTotal typeCode={d.typeCode} kwh={d.totalEnergyKwh} />
      </td>
    </tr>
  );
}

/** A device on a phone: the same facts as a row, stacked so nothing is cut off at 390 px. */
function DeviceCard({ device: d }: { device: DeviceListItem }) {
  const { t } = useTranslation();
  const open = useOpenDevice(d);
  return (
    <Card
      withBorder
      padding="sm"
      className={classes.clickable}
      tabIndex={0}
      onClick={open.onClick}
      onKeyDown={open.onKeyDown}
      data-device-card={d.id}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Anchor component={Link} to={open.to} fw={600} tabIndex={-1} style={{ overflowWrap: 'anywhere' }}>
            {d.name}
          </Anchor>
          <Text size="xs" c="dimmed" data-device-type={d.id}>
            {[deviceTypeLabel(t, d), d.model].filter(Boolean).join(' · ')}
          </Text>
        </div>
        <DeviceStatusBadge device={d} />
      </Group>
      <Group justify="space-between" mt="xs" wrap="nowrap">
        <div>
          <Text size="xs" c="dimmed">
            {t('dashboard.liveValue')}
          </Text>
          <LiveValue device={d} />
        </div>
        <div style={{ textAlign: 'right' }}>
          <Text size="xs" c="dimmed">
            {t('dashboard.total')}
          </Text>
          <Text fw={600} component="div" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <EnergyTotal typeCode={d.typeCode} kwh={d.totalEnergyKwh} />
          </Text>
        </div>
      </Group>
      <Group justify="space-between" mt="xs" wrap="nowrap" gap="xs">
        <Text size="xs" c="dimmed" style={{ minWidth: 0 }} truncate>
          {`${t('dashboard.location')}: ${d.location?.name ?? '—'} · ${t('dashboard.tariff')}: ${d.tariff?.name ?? '—'}`}
        </Text>
        <Actions device={d} />
      </Group>
    </Card>
  );
}
