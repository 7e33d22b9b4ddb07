import { Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The device page's summary and charts while they load: two blocks of about their height. */
export function SummaryPlaceholder() {
  const { t } = useTranslation();
  return (
    <Stack role="status" aria-busy aria-label={t('app.loading')} gap="md">
      <Skeleton h={220} />
      <Skeleton h={160} />
    </Stack>
  );
}
