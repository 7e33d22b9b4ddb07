import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PushState, pushState, subscribePush, unsubscribePush } from '../push-browser';

/**
 * Turns Web Push on or off for this browser (and the signed-in user). On the profile as a section of its
 * own; beside a device's push switch as a compact line (`devicePushOn` says whether that device sends any).
 * Loaded on demand: the service worker and the push code come with it.
 */
export function PushBrowserSwitch({ compact = false, devicePushOn }: { compact?: boolean; devicePushOn?: boolean }) {
  const { t } = useTranslation();
  const [state, setState] = useState<PushState | 'checking'>('checking');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    pushState()
      .then((s) => live && setState(s))
      .catch(() => live && setState('unsupported'));
    return () => {
      live = false;
    };
  }, []);

  const toggle = async () => {
    setBusy(true);
    setFailed(false);
    try {
      setState(await (state === 'subscribed' ? unsubscribePush() : subscribePush()));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const status =
    state === 'checking'
      ? t('notifications.push.checking')
      : state === 'unsupported'
        ? t('notifications.push.unsupported')
        : state === 'denied'
          ? t('notifications.push.denied')
          : t(state === 'subscribed' ? 'notifications.push.on' : 'notifications.push.off');
  const control = (state === 'subscribed' || state === 'unsubscribed') && (
    <Button
      type="button"
      size={compact ? 'compact-sm' : 'sm'}
      variant={state === 'subscribed' ? 'default' : 'filled'}
      leftSection={state === 'subscribed' ? <IconBellOff size={16} /> : <IconBell size={16} />}
      loading={busy}
      onClick={() => void toggle()}
    >
      {t(state === 'subscribed' ? 'notifications.push.disable' : 'notifications.push.enable')}
    </Button>
  );

  return (
    <Stack gap="xs" pl={compact ? 50 : 0} data-push-state={state}>
      {!compact && (
        <>
          <Title order={2} size="h4">
            {t('notifications.push.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('notifications.push.description')}
          </Text>
        </>
      )}
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={500} aria-live="polite">
          {status}
        </Text>
        {control}
      </Group>
      {failed && (
        <Alert color="red" role="alert" p="xs">
          {t('notifications.push.failed')}
        </Alert>
      )}
      {compact && devicePushOn === false && state === 'subscribed' && (
        <Text size="xs" c="dimmed">
          {t('notifications.push.devicePushOff')}
        </Text>
      )}
    </Stack>
  );
}
