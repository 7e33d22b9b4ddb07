import { Alert, Button, Center, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { isChunkLoadError } from '@/lib/lazy-chunk';

/** Shown when a screen cannot load (chunk failure or 120 s timeout) or throws; retry reloads it. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  return (
    <Center py="xl">
      <Stack maw={480} w="100%">
        <Alert color="red" icon={<IconAlertTriangle />} title={chunk ? t('errors.loadTitle') : t('errors.generic')} role="alert">
          <Text size="sm">{chunk ? t('errors.chunkLoad') : t('errors.generic')}</Text>
        </Alert>
        <Button onClick={() => window.location.reload()} autoFocus>
          {t('errors.retry')}
        </Button>
      </Stack>
    </Center>
  );
}
