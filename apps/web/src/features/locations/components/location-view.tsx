import { Anchor, Button, Card, Group, SimpleGrid, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { deviceDetailPath, type Location } from '@phasewatch/shared';
import { IconChartBar, IconEdit } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { loadProsumerTab } from '@/features/prosumer';
import { SimulatedNote } from '@/features/tariffs';
import { withArea } from '@/i18n';
import { DeleteLocationButton } from './delete-location';
import { Fact } from './fact';
import { LocationFigures } from './location-figures';
import { LocationTariffs } from './location-tariffs';

/** The Prosumer tab (issue 33), loaded with its texts when first shown. */
const ProsumerTab = lazy(withArea('prosumer', loadProsumerTab));

/** `/locations/view/{id}`: the location, its energy and cost this month and last, its tariffs and devices. */
export function LocationView({ location }: { location: Location }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
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
                      <Fact label={t('locations.form.code')} value={location.code} />
                      <Fact label={t('locations.form.timezone')} value={location.timezone} />
                      <Fact label={t('locations.form.address')} value={location.address} />
                      <Fact label={t('locations.form.city')} value={location.city} />
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

                <LocationTariffs location={location} />

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
