import { Alert, Card, Text } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Page } from '@/components/page';

/** Screens later issues fill in: the route, its spec title and the ids it was opened with. */
function Placeholder({ titleKey, note }: { titleKey: string; note?: string }) {
  const { t } = useTranslation();
  const params = useParams();
  const ids = Object.values(params).filter(Boolean);
  return (
    <Page titleKey={titleKey}>
      <Card withBorder padding="lg">
        {ids.length > 0 && (
          <Text fw={600} mb="xs">
            {t('placeholder.item', { id: ids.join(' / ') })}
          </Text>
        )}
        <Alert variant="light" icon={<IconTools />}>
          {t('placeholder.soon')}
        </Alert>
        {note && (
          <Text size="xs" c="dimmed" mt="sm">
            {t(note)}
          </Text>
        )}
      </Card>
    </Page>
  );
}

export const LocationListPage = () => <Placeholder titleKey="titles.locationList" />;
export const LocationViewPage = () => <Placeholder titleKey="titles.locations" />;
export const LocationEditPage = () => <Placeholder titleKey="titles.locations" />;
export const LocationTariffEditPage = () => <Placeholder titleKey="titles.locations" note="placeholder.tariffNote" />;
export const TariffStatsPage = () => <Placeholder titleKey="titles.tariffsBalance" note="placeholder.tariffNote" />;
