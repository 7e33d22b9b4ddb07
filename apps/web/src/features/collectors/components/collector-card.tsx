import { Alert, Badge, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type CollectorState, type CollectorStatus, MAX_POLL_SECONDS, MIN_POLL_SECONDS } from '@phasewatch/shared';
import { IconPencil, IconPlugConnected } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { dateTimeFormat } from '@/lib/intl';
import { useCollector } from '../api/get-collector';
import { useUpdateCollector } from '../api/update-collector';

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
  const [editing, setEditing] = useState(false);
  if (!c) return null;
  const fmt = dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium', timeZone: effectiveTimezone(storedTimezone()) });
  const when = (s: string | null) => (s ? fmt.format(utc(s)) : t('collectors.never'));
  return (
    <Card withBorder padding="lg" data-testid="collector-card">
      <Group justify="space-between" mb="sm" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <IconPlugConnected size={20} aria-hidden />
          <Title order={3} size="h5">
            {t('collectors.cardTitle', { family: t(`collectors.kind.${c.kind}`) })}
          </Title>
        </Group>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          <Badge color={STATE_COLOR[c.state]} variant="light" data-collector-state={c.state}>
            {t(`collectors.state.${c.state}`)}
          </Badge>
          {!editing && (
            <Button size="compact-sm" variant="default" leftSection={<IconPencil size={14} />} onClick={() => setEditing(true)}>
              {t('collectors.edit.open')}
            </Button>
          )}
        </Group>
      </Group>
      {editing && <CollectorSettings deviceId={deviceId} status={c} onDone={() => setEditing(false)} />}
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

/** New address, key or interval: tested with the stored key first, saved only when the device answers. */
function CollectorSettings({ deviceId, status, onDone }: { deviceId: number; status: CollectorStatus; onDone(): void }) {
  const { t } = useTranslation();
  const [address, setAddress] = useState(status.address);
  const [key, setKey] = useState('');
  const [seconds, setSeconds] = useState<number | string>(status.pollSeconds);
  const update = useUpdateCollector(deviceId);
  const failed = update.data && !update.data.test.ok ? update.data.test : null;
  const tasmota = status.kind === 'tasmota';
  const validSeconds =
    typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= MIN_POLL_SECONDS && seconds <= MAX_POLL_SECONDS;
  const save = async () => {
    if (!validSeconds) return;
    const r = await update
      .mutateAsync({ kind: status.kind, address: address.trim(), ...(key ? { key } : {}), pollSeconds: seconds as number })
      .catch(() => null);
    if (r?.saved) onDone();
  };
  return (
    <Stack gap="sm" mb="md" data-testid="collector-settings">
      <TextInput
        label={t(tasmota ? 'collectors.topic' : 'collectors.address')}
        value={address}
        onChange={(e) => setAddress(e.currentTarget.value)}
        required
        autoComplete="off"
        spellCheck={false}
      />
      {!tasmota && (
        <TextInput
          label={t('collectors.key')}
          type="password"
          autoComplete="off"
          placeholder={status.hasKey ? t('collectors.edit.keyUnchanged') : ''}
          description={status.hasKey ? t('collectors.edit.keyHint') : undefined}
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
        />
      )}
      <NumberInput
        label={t(tasmota ? 'collectors.edit.telePeriod' : 'collectors.edit.seconds')}
        min={MIN_POLL_SECONDS}
        max={MAX_POLL_SECONDS}
        allowDecimal={false}
        value={seconds}
        onChange={setSeconds}
        error={validSeconds ? undefined : t('collectors.edit.secondsRange', { min: MIN_POLL_SECONDS, max: MAX_POLL_SECONDS })}
      />
      {failed && !failed.ok && (
        <Alert color="red" variant="light" role="alert" title={t('collectors.notRead')}>
          <Text size="sm">{t(`collectors.errors.${failed.errorKey}`)}</Text>
          <Text size="xs" c="dimmed">
            {failed.error}
          </Text>
        </Alert>
      )}
      {update.isError && (
        <Alert color="red" variant="light" role="alert">
          {t('messages.unableToSave')}
        </Alert>
      )}
      <Group gap="xs" justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('collectors.edit.cancel')}
        </Button>
        <Button onClick={() => void save()} loading={update.isPending} disabled={!address.trim() || !validSeconds}>
          {t('collectors.edit.save')}
        </Button>
      </Group>
    </Stack>
  );
}
