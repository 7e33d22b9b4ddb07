import { Badge, Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import type { CollectorState } from '@phasewatch/shared';
import { IconPlugConnected } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { dateTimeFormat } from '@/lib/intl';
import { useCollector } from '../api/get-collector';

const STATE_COLOR: Record<CollectorState, string> = {
  starting: 'gray',
  polling: 'teal',
  listening: 'teal',
  retrying: 'red',
  stopped: 'gray',
};

/** Server dates are UTC `YYYY-MM-DD HH:mm:ss`. */
const utc = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);

/**
 * How Phasewatch reads a collected device: polling or listening, the last success, the last error in
 * words and when it tries again. Nothing for a device that sends by itself.
 */
export function CollectorCard({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const { data: c } = useCollector(deviceId);
  if (!c) return null;
  const fmt = dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium', timeZone: effectiveTimezone(storedTimezone()) });
  const when = (s: string | null) => (s ? fmt.format(utc(s)) : t('collectors.never'));
  return (
    <Card withBorder padding="lg" data-testid="collector-card">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconPlugConnected size={20} aria-hidden />
          <Title order={3} size="h5">
            {t('collectors.cardTitle', { family: t(`collectors.kind.${c.kind}`) })}
          </Title>
        </Group>
        <Badge color={STATE_COLOR[c.state]} variant="light" data-collector-state={c.state}>
          {t(`collectors.state.${c.state}`)}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t(c.kind === 'tasmota' ? 'collectors.topic' : 'collectors.address')}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {c.address}
          </Text>
          <Text size="xs" c="dimmed">
            {c.kind === 'tasmota' ? t('collectors.telePeriod', { count: c.pollSeconds }) : t('collectors.every', { count: c.pollSeconds })}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('collectors.lastSuccess')}
          </Text>
          <Text size="sm">{when(c.lastSuccessAt)}</Text>
          {c.state === 'retrying' && c.nextAttemptAt && (
            <Text size="xs" c="dimmed">
              {t('collectors.nextTry', { time: when(c.nextAttemptAt), count: c.failures })}
            </Text>
          )}
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('collectors.lastError')}
          </Text>
          {c.lastErrorKey ? (
            <>
              <Text size="sm" c={c.state === 'retrying' ? 'red' : undefined} data-testid="collector-last-error">
                {t(`collectors.errors.${c.lastErrorKey}`)}
              </Text>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {c.lastError} {c.lastErrorAt ? `(${when(c.lastErrorAt)})` : ''}
              </Text>
            </>
          ) : (
            <Text size="sm">{t('collectors.noError')}</Text>
          )}
        </div>
      </SimpleGrid>
    </Card>
  );
}
