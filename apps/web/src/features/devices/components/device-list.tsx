import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import { type DeviceListItem, deviceDetailPath, deviceKind } from '@phasewatch/shared';
import { IconDevices, IconEdit, IconEye, IconWifiOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SearchBox } from '@/components/ui/search-box';
import { paths } from '@/config/paths';
import { useLiveDeviceStatus, useLiveMeasurements } from '@/features/realtime/use-live-measurements';
import { errorTexts } from '@/lib/error-text';
import { useDevices } from '../api/get-devices';
import { newestReading } from '../api/get-latest-reading';
import { formatQuantity, headlineValue } from '../live-values';
import { EnergyTotal } from './energy-total';

/**
 * The dashboard's device list: name, model, status, live value, actions, location, tariff, total (spec
 * section 2). Each shown row watches its device on the hub: the live value and the online status follow
 * the pushed readings and status events without refetching the list.
 */
export function DeviceList() {
  const { t } = useTranslation();
  const devices = useDevices();
  const [query, setQuery] = useState('');

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
          <Text c="dimmed" size="sm" ta="center">
            {t('dashboard.emptyHint')}
          </Text>
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
      <SearchBox maw={320} placeholder={t('dashboard.searchPlaceholder')} onSearch={setQuery} onClear={() => setQuery('')} />
      {rows.length === 0 ? (
        <Text c="dimmed">{t('dashboard.noMatches', { query })}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dashboard.name')}</Table.Th>
                <Table.Th>{t('dashboard.model')}</Table.Th>
                <Table.Th>{t('dashboard.status')}</Table.Th>
                <Table.Th ta="right" visibleFrom="xs">
                  {t('dashboard.liveValue')}
                </Table.Th>
                <Table.Th>{t('dashboard.actions')}</Table.Th>
                <Table.Th>{t('dashboard.location')}</Table.Th>
                <Table.Th>{t('dashboard.tariff')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <DeviceRow key={d.id} device={d} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/**
 * The figure a row shows live: total power, single-phase power or temperature. Until the hub pushes a
 * reading it shows the device's last stored one, which the list answer carries (a dash for a device
 * that never sent any).
 */
export function LiveValue({ device }: { device: Pick<DeviceListItem, 'id' | 'typeCode' | 'latestReading'> }) {
  const { i18n } = useTranslation();
  const { latest } = useLiveMeasurements(device.id);
  const head = headlineValue(deviceKind(device.typeCode), newestReading(latest, device.latestReading)?.values);
  return (
    <Text component="span" fw={600} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-live-value={device.id}>
      {head ? formatQuantity(head.value, head.unit, i18n.language) : '—'}
    </Text>
  );
}

function DeviceRow({ device: d }: { device: DeviceListItem }) {
  const { t } = useTranslation();
  const live = useLiveDeviceStatus(d.id);
  const online = (live?.status ?? d.status) === 'online';
  const weakSignal = live?.weakSignal ?? d.weakSignal;
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={deviceDetailPath(d.typeCode, d.id)} fw={600}>
          {d.name}
        </Anchor>
        {d.friendlyName && d.friendlyName !== d.name && (
          <Text size="xs" c="dimmed">
            {d.friendlyName}
          </Text>
        )}
        {/* Below 576 px the list scrolls sideways: the live value stays in sight under the name. */}
        <Box hiddenFrom="xs" mt={2}>
          <LiveValue device={d} />
        </Box>
      </Table.Td>
      <Table.Td>{d.model}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Badge color={online ? 'teal' : 'gray'} variant="light" data-device-status={d.id}>
            {t(online ? 'dashboard.online' : 'dashboard.offline')}
          </Badge>
          {weakSignal && (
            <Tooltip label={t('dashboard.weakSignal')}>
              <IconWifiOff size={16} aria-label={t('dashboard.weakSignal')} />
            </Tooltip>
          )}
        </Group>
      </Table.Td>
      <Table.Td ta="right" visibleFrom="xs">
        <LiveValue device={d} />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            component={Link}
            to={paths.deviceOverview(d.id)}
            variant="subtle"
            aria-label={`${t('dashboard.overview')}: ${d.name}`}
          >
            <IconEye size={18} />
          </ActionIcon>
          <ActionIcon component={Link} to={paths.editDevice(d.id)} variant="subtle" aria-label={`${t('dashboard.edit')}: ${d.name}`}>
            <IconEdit size={18} />
          </ActionIcon>
        </Group>
      </Table.Td>
      <Table.Td>{d.location?.name ?? '—'}</Table.Td>
      <Table.Td>{d.tariff?.name ?? '—'}</Table.Td>
      <Table.Td ta="right">
        <EnergyTotal typeCode={d.typeCode} kwh={d.totalEnergyKwh} />
      </Table.Td>
    </Table.Tr>
  );
}
