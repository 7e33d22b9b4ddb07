import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { deviceDetailPath, type Location, localDate, priceOn } from '@phasewatch/shared';
import { IconChartBar, IconEdit, IconPlus } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { loadProsumerTab } from '@/features/prosumer';
import { formatPrice, SimulatedNote, useLocationTariffs } from '@/features/tariffs';
import { withArea } from '@/i18n';
import { DeleteLocationButton } from './delete-location';
import { LocationFigures } from './location-figures';

/** The Prosumer tab (issue 33), loaded with its texts when first shown. */
const ProsumerTab = lazy(withArea('prosumer', loadProsumerTab));

/** `/locations/view/{id}`: the location, its energy and cost this month and last, its tariffs and devices. */
export function LocationView({ location }: { location: Location }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const tariffs = useLocationTariffs(location.id);
  const today = localDate(Date.now(), location.timezone);
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'prosumer' ? 'prosumer' : 'overview';
  const tabList = (
    <Tabs.List>
      <Tabs.Tab value="overview">{t('prosumer.tabOverview')}</Tabs.Tab>
      <Tabs.Tab value="prosumer" data-prosumer-tab-button>
        {t('prosumer.tab')}
      </Tabs.Tab>
    </Tabs.List>
  );
  const field = (label: string, value: string) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || '—'}</Text>
    </div>
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3" data-location-name>
          {location.name}
        </Title>
        <Group gap="xs">
          <Button variant="light" component={Link} to={paths.locationEdit(location.id)} leftSection={<IconEdit size={16} />}>
            {t('locations.edit')}
          </Button>
          <DeleteLocationButton location={location} onDeleted={() => void navigate(paths.locations)} />
        </Group>
      </Group>
      <Tabs value={tab} onChange={(v) => setSearch(v === 'prosumer' ? { tab: 'prosumer' } : {}, { replace: true })}>
        {tabList}
        <Tabs.Panel value="prosumer" pt="md">
          {tab === 'prosumer' && (
            <Suspense fallback={<Skeleton h={200} aria-busy aria-label={t('app.loading')} />}>
              <ProsumerTab location={location} />
            </Suspense>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="overview" pt="md">
          <Stack gap="md">
            {tab === 'overview' && (
              <>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Card withBorder padding="lg">
                    <Title order={3} size="h4" mb="sm">
                      {t('locations.details')}
                    </Title>
                    <SimpleGrid cols={2}>
                      {field(t('locations.form.code'), location.code)}
                      {field(t('locations.form.timezone'), location.timezone)}
                      {field(t('locations.form.address'), location.address)}
                      {field(t('locations.form.city'), location.city)}
                    </SimpleGrid>
                  </Card>
                  <Card withBorder padding="lg">
                    <Group justify="space-between" mb="sm">
                      <Title order={3} size="h4">
                        {t('locations.energyAndCost')}
                      </Title>
                      {location.tariff && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          component={Link}
                          to={paths.tariffStats(location.tariff.id)}
                          leftSection={<IconChartBar size={14} />}
                        >
                          {t('titles.tariffsBalance')}
                        </Button>
                      )}
                    </Group>
                    <LocationFigures locationId={location.id} />
                    {!location.tariff && (
                      <Text size="xs" c="dimmed" mt="xs">
                        {t('locations.noTariffHint')}
                      </Text>
                    )}
                  </Card>
                </SimpleGrid>

                <Card withBorder padding="lg" data-location-tariffs>
                  <Group justify="space-between" mb="sm">
                    <Title order={3} size="h4">
                      {t('locations.tariffs')}
                    </Title>
                    <Button
                      size="compact-sm"
                      component={Link}
                      to={paths.locationTariffEdit(location.id, paths.newId)}
                      leftSection={<IconPlus size={14} />}
                    >
                      {t('locations.addTariff')}
                    </Button>
                  </Group>
                  {tariffs.data && tariffs.data.length === 0 && <Text c="dimmed">{t('locations.noTariffs')}</Text>}
                  {tariffs.data && tariffs.data.length > 0 && (
                    <Table.ScrollContainer minWidth={560}>
                      <Table>
                        <Table.Thead>
                          <Table.Tr>
                            <Table.Th>{t('tariffs.form.name')}</Table.Th>
                            <Table.Th>{t('tariffs.form.group')}</Table.Th>
                            <Table.Th>{t('locations.priceToday')}</Table.Th>
                            <Table.Th>{t('locations.devices')}</Table.Th>
                            <Table.Th />
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {tariffs.data.map((tr) => {
                            const p = priceOn(tr.prices, today);
                            return (
                              <Table.Tr key={tr.id} data-tariff={tr.name}>
                                <Table.Td>
                                  <Anchor component={Link} to={paths.locationTariffEdit(location.id, tr.id)}>
                                    {tr.name}
                                  </Anchor>
                                  {tr.isLocationTariff && (
                                    <Badge ml={6} size="xs" variant="light">
                                      {t('locations.energyTariff')}
                                    </Badge>
                                  )}
                                </Table.Td>
                                <Table.Td>{tr.group}</Table.Td>
                                <Table.Td>
                                  <Text size="sm">
                                    {p
                                      ? [p.area1, p.area2, p.area3]
                                          .filter((x): x is number => x !== null)
                                          .map((x) => formatPrice(x, tr.currency, i18n.language))
                                          .join(' / ')
                                      : t('locations.noPriceToday')}
                                  </Text>
                                </Table.Td>
                                <Table.Td>{tr.deviceCount}</Table.Td>
                                <Table.Td>
                                  <Group gap={4} justify="flex-end" wrap="nowrap">
                                    <Button size="compact-xs" variant="subtle" component={Link} to={paths.tariffStats(tr.id)}>
                                      {t('locations.statistics')}
                                    </Button>
                                    <Button
                                      size="compact-xs"
                                      variant="subtle"
                                      component={Link}
                                      to={paths.locationTariffEdit(location.id, tr.id)}
                                    >
                                      {t('locations.edit')}
                                    </Button>
                                  </Group>
                                </Table.Td>
                              </Table.Tr>
                            );
                          })}
                        </Table.Tbody>
                      </Table>
                    </Table.ScrollContainer>
                  )}
                </Card>

                <Card withBorder padding="lg" data-location-devices>
                  <Title order={3} size="h4" mb="sm">
                    {t('locations.devices')}
                  </Title>
                  {location.devices.length === 0 ? (
                    <Text c="dimmed">{t('locations.noDevicesHint')}</Text>
                  ) : (
                    <Stack gap={4}>
                      {location.devices.map((d) => {
                        const tariff = location.tariffs.find((x) => x.id === d.tariffId);
                        return (
                          <Group key={d.id} gap="xs">
                            <Anchor component={Link} to={deviceDetailPath(d.typeCode, d.id)}>
                              {d.name}
                            </Anchor>
                            <Text size="sm" c="dimmed">
                              {tariff ? tariff.name : t('locations.noDeviceTariff')}
                            </Text>
                            <Anchor component={Link} to={paths.editDevice(d.id)} size="xs">
                              {t('locations.edit')}
                            </Anchor>
                          </Group>
                        );
                      })}
                    </Stack>
                  )}
                </Card>
              </>
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
      <SimulatedNote />
    </Stack>
  );
}
