import { Badge, Group, List, Text } from '@mantine/core';
import type { TariffPresetInfo } from '@phasewatch/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** A preset's provenance: operator, source, and what the tariff note leaves unconfirmed (labelled so). */
export function PresetNotes({ preset }: { preset: TariffPresetInfo }) {
  const { t } = useTranslation();
  return (
    <div data-preset-notes={preset.id}>
      <Group gap="xs" mb={4}>
        <Text size="sm" fw={600}>
          {preset.operatorName} · {preset.group}
        </Text>
        {preset.unconfirmed ? (
          <Badge color="yellow" variant="light" leftSection={<IconAlertTriangle size={12} />}>
            {t('tariffs.unconfirmed')}
          </Badge>
        ) : (
          <Badge color="teal" variant="light">
            {t('tariffs.confirmed')}
          </Badge>
        )}
      </Group>
      {preset.notes.length > 0 && (
        <List size="xs" spacing={2} mb={4}>
          {preset.notes.map((n) => (
            <List.Item key={n}>{t(`tariffs.presetNotes.${n}`)}</List.Item>
          ))}
        </List>
      )}
      <Text size="xs" c="dimmed">
        {t('tariffs.source', { source: preset.source, from: preset.validFrom })}
      </Text>
    </div>
  );
}
