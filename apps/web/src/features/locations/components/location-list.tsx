import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartBar, IconEdit, IconMapPin, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { SimulatedNote } from '@/features/tariffs';
import { errorTexts } from '@/lib/error-text';
import { useLocations } from '../api/get-locations';
import { DeleteLocationButton } from './delete-location';
import { LocationFigures } from './location-figures';

/** `/locations`: the user's locations with their devices, tariff and this month's energy and cost. */
export function LocationList() {
  const { t } = useTranslation();
  const locations = useLocations();
  if (locations.isPending) {
    return (
      <Stack aria-busy aria-label={t('app.loading')}>
        <Skeleton h={140} />
        <Skeleton h={140} />
      </Stack>
    );
  }
  if (locations.isError) {
    return (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {errorTexts(locations.error)
            .map((m) => t(m, { defaultValue: m }))
            .join(' ')}
        </Alert>
        <Button onClick={() => void locations.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  }
  if (locations.data.length === 0) {
    return (
      <Card withBorder padding="xl" data-empty-locations>
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={48} radius="xl" variant="light">
            <IconMapPin size={28} />
          </ThemeIcon>
          <Title order={2} size="h3">
            {t('locations.emptyTitle')}
          </Title>
          <Text c="dimmed" maw={520}>
            {t('locations.emptyText')}
          </Text>
          <Button component={Link} to={paths.locationEdit(paths.newId)} leftSection={<IconPlus size={18} />}>
            {t('locations.addFirst')}
          </Button>
        </Stack>
      </Card>
    );
  }
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {locations.data.map((l) => (
          <Card key={l.id} withBorder padding="lg" data-location={l.name}>
            <Stack gap={6} h="100%">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div>
                  <Anchor component={Link} to={paths.locationView(l.id)} fw={700} size="lg">
                    {l.name}
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {[l.address, l.city].filter(Boolean).join(', ') || t('locations.noAddress')} · {l.timezone}
                  </Text>
                </div>
                {l.code && <Badge variant="light">{l.code}</Badge>}
              </Group>
              <Text size="sm">
                <Text span fw={600}>
                  {t('locations.tariff')}:
                </Text>{' '}
                {l.tariff ? (
                  <Anchor component={Link} to={paths.tariffStats(l.tariff.id)}>
                    {l.tariff.name} ({l.tariff.group})
                  </Anchor>
                ) : (
                  <Text span c="dimmed">
                    {t('locations.noTariff')}
                  </Text>
                )}
              </Text>
              <Text size="sm">
                <Text span fw={600}>
                  {t('locations.devices')}:
                </Text>{' '}
                {l.devices.length === 0 ? (
                  <Text span c="dimmed">
                    {t('locations.noDevices')}
                  </Text>
                ) : (
                  l.devices.map((d) => d.name).join(', ')
                )}
              </Text>
              <LocationFigures locationId={l.id} compact />
              <Group gap="xs" mt="auto" pt="xs">
                <Button size="compact-sm" variant="light" component={Link} to={paths.locationView(l.id)}>
                  {t('locations.view')}
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  component={Link}
                  to={paths.locationEdit(l.id)}
                  leftSection={<IconEdit size={14} />}
                >
                  {t('locations.edit')}
                </Button>
                {l.tariff && (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    component={Link}
                    to={paths.tariffStats(l.tariff.id)}
                    leftSection={<IconChartBar size={14} />}
                  >
                    {t('titles.tariffsBalance')}
                  </Button>
                )}
                <DeleteLocationButton location={l} compact />
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <SimulatedNote />
    </Stack>
  );
}
