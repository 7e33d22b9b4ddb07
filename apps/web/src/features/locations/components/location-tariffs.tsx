import { Anchor, Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { type Location, localDate, priceOn, type Tariff } from '@phasewatch/shared';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatPrice, useLocationTariffs } from '@/features/tariffs';
import { usePhone } from '@/lib/use-phone';
import { Fact } from './fact';

/**
 * The location view's tariffs: name (with the location's energy tariff marked), group, today's zone prices,
 * how many devices use it, and links to its statistics and editor. A table from 576 px; on a phone each
 * tariff is a small stacked card, so "Prices today" is read in full rather than cut at the card's edge.
 */
export function LocationTariffs({ location }: { location: Location }) {
  const { t, i18n } = useTranslation();
  const phone = usePhone();
  const tariffs = useLocationTariffs(location.id);
  const today = localDate(Date.now(), location.timezone);
  const prices = (tr: Tariff) => {
    const p = priceOn(tr.prices, today);
    return p
      ? [p.area1, p.area2, p.area3]
          .filter((x): x is number => x !== null)
          .map((x) => formatPrice(x, tr.currency, i18n.language))
          .join(' / ')
      : t('locations.noPriceToday');
  };
  const name = (tr: Tariff) => (
    <>
      <Anchor component={Link} to={paths.locationTariffEdit(location.id, tr.id)}>
        {tr.name}
      </Anchor>
      {tr.isLocationTariff && (
        <Badge ml={6} size="xs" variant="light">
          {t('locations.energyTariff')}
        </Badge>
      )}
    </>
  );
  const actions = (tr: Tariff) => (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Button size="compact-xs" variant="subtle" component={Link} to={paths.tariffStats(tr.id)}>
        {t('locations.statistics')}
      </Button>
      <Button size="compact-xs" variant="subtle" component={Link} to={paths.locationTariffEdit(location.id, tr.id)}>
        {t('locations.edit')}
      </Button>
    </Group>
  );
  const list = tariffs.data ?? [];

  return (
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
      {tariffs.data && list.length === 0 && <Text c="dimmed">{t('locations.noTariffs')}</Text>}
      {list.length > 0 &&
        (phone ? (
          <Stack gap="sm">
            {list.map((tr) => (
              <Paper key={tr.id} withBorder p="sm" data-tariff={tr.name}>
                <Stack gap="xs">
                  <div>{name(tr)}</div>
                  <SimpleGrid cols={2} spacing="xs">
                    <Fact label={t('tariffs.form.group')} value={tr.group} />
                    <Fact label={t('locations.devices')} value={String(tr.deviceCount)} />
                  </SimpleGrid>
                  <Fact label={t('locations.priceToday')} value={prices(tr)} />
                  {actions(tr)}
                </Stack>
              </Paper>
            ))}
          </Stack>
        ) : (
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
                {list.map((tr) => (
                  <Table.Tr key={tr.id} data-tariff={tr.name}>
                    <Table.Td>{name(tr)}</Table.Td>
                    <Table.Td>{tr.group}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{prices(tr)}</Text>
                    </Table.Td>
                    <Table.Td>{tr.deviceCount}</Table.Td>
                    <Table.Td>{actions(tr)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ))}
    </Card>
  );
}
