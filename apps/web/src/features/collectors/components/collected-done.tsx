import { Alert, Code, Stack, Text } from '@mantine/core';
import type { CreateDeviceResponse } from '@phasewatch/shared';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The add-device flow's last step for a device Phasewatch reads itself: nothing to set up on the device.
 * Its ingest key is shown once anyway, for running the collectors beside the meter (`npm run collector`).
 */
export function CollectedDone({ created, keyView }: { created: CreateDeviceResponse; keyView?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" mt="sm">
      <Alert color="teal" variant="light" icon={<IconCircleCheck />} title={t('collectors.done.title')} data-testid="collected-done">
        {t('collectors.done.body', { seconds: created.device.reportingIntervalSeconds })}
      </Alert>
      {/* With a copy button where the add-device flow gives one (the key is shown once). */}
      {keyView ?? (
        <div>
          <Text size="sm" fw={600} mb={4}>
            {t('collectors.done.keyTitle')}
          </Text>
          <Code block data-testid="ingest-key" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {created.ingestKey}
          </Code>
          <Text size="xs" c="dimmed" mt={4}>
            {t('collectors.done.keyHint')}
          </Text>
        </div>
      )}
    </Stack>
  );
}
