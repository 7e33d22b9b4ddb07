import { Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The spec's note, shown wherever costs are (spec sections 3 and 9). */
export function SimulatedNote() {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed" data-simulated-note style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
      <IconInfoCircle size={14} aria-hidden />
      {t('tariffs.simulated')}
    </Text>
  );
}
