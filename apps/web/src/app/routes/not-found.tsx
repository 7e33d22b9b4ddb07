import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

export default function NotFoundPage() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('titles.notFound')} · ${t('app.name')}`;
  }, [t]);
  return (
    <Center py={80}>
      <Stack align="center" gap="md">
        {/* The link colour: readable in both schemes (#ff7300 on white is below even the 3:1 of large text). */}
        <Text fz={72} fw={800} c="var(--mantine-color-anchor)" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1} size="h2" ta="center">
          {t('errors.notFound')}
        </Title>
        <Button component={Link} to={paths.dashboard}>
          {t('errors.backHome')}
        </Button>
      </Stack>
    </Center>
  );
}
