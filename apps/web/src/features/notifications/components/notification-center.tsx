import { Alert, Button, Card, Group, NativeSelect, Skeleton, Stack, Text } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { NOTIFICATION_KINDS, NOTIFICATION_STATES, type NotificationKind, type NotificationState, parseId } from '@phasewatch/shared';
import { IconChecks } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDevices } from '@/lib/devices-query';
import { errorTexts } from '@/lib/error-text';
import { useNotifications } from '../api/get-notifications';
import { useMarkAllRead } from '../api/mark-all-read';
import { useMarkNotification } from '../api/mark-notification';
import type { NotificationFilters } from '../api/notification-keys';
import { NotificationCard } from './notification-card';

/** The filters a URL describes (`?deviceId=3&kind=voltage_drop&state=active`; links from pushes and mails use deviceId). */
export function readFilters(search: URLSearchParams): NotificationFilters {
  const deviceId = parseId(search.get('deviceId'));
  const kind = search.get('kind');
  const state = search.get('state');
  return {
    ...(deviceId !== null ? { deviceId } : {}),
    ...((NOTIFICATION_KINDS as readonly string[]).includes(kind ?? '') ? { kind: kind as NotificationKind } : {}),
    ...((NOTIFICATION_STATES as readonly string[]).includes(state ?? '') ? { state: state as NotificationState } : {}),
  };
}

/** The notification centre: filters (device, kind, state, kept in the URL), the list newest first, read and acknowledge. */
export function NotificationCenter() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => readFilters(search), [search]);
  const list = useNotifications(filters);
  const devices = useDevices();
  const mark = useMarkNotification();
  const markAll = useMarkAllRead();

  const setFilter = (key: 'deviceId' | 'kind' | 'state', value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearch(next, { replace: true });
  };
  const failed = () => toasts.show({ color: 'red', message: t('notifications.actionFailed') });
  const act = (id: number, action: 'read' | 'acknowledge') => mark.mutate({ id, action }, { onError: failed });

  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = list.data?.pages[0]?.unread ?? 0;
  const filtered = filters.deviceId !== undefined || filters.kind !== undefined || filters.state !== undefined;

  return (
    <Stack gap="md">
      <Card withBorder padding="sm" component="section" aria-label={t('notifications.filters.label')}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label={t('notifications.filters.device')}
            value={filters.deviceId === undefined ? '' : String(filters.deviceId)}
            onChange={(e) => setFilter('deviceId', e.currentTarget.value)}
            data={[
              { value: '', label: t('notifications.filters.allDevices') },
              ...(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name })),
            ]}
            style={{ flex: '1 1 200px' }}
          />
          <NativeSelect
            label={t('notifications.filters.kind')}
            value={filters.kind ?? ''}
            onChange={(e) => setFilter('kind', e.currentTarget.value)}
            data={[
              { value: '', label: t('notifications.filters.allKinds') },
              ...NOTIFICATION_KINDS.map((k) => ({ value: k, label: t(`notifications.kinds.${k}`) })),
            ]}
            style={{ flex: '1 1 200px' }}
          />
          <NativeSelect
            label={t('notifications.filters.state')}
            value={filters.state ?? ''}
            onChange={(e) => setFilter('state', e.currentTarget.value)}
            data={[
              { value: '', label: t('notifications.filters.allStates') },
              ...NOTIFICATION_STATES.map((s) => ({ value: s, label: t(`notifications.states.${s}`) })),
            ]}
            style={{ flex: '1 1 200px' }}
          />
          <Button
            variant="default"
            leftSection={<IconChecks size={16} />}
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate(undefined, { onError: failed })}
            styles={{ label: { whiteSpace: 'normal' } }}
          >
            {t('notifications.markAllRead')}
          </Button>
        </Group>
      </Card>

      {list.isPending ? (
        <Stack aria-busy aria-label={t('app.loading')}>
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} h={112} radius="md" />
          ))}
        </Stack>
      ) : list.isError ? (
        <Stack align="flex-start">
          <Alert color="red" role="alert">
            {t('notifications.loadFailed')}{' '}
            {errorTexts(list.error)
              .map((k) => t(k))
              .join(' ')}
          </Alert>
          <Button onClick={() => void list.refetch()}>{t('notifications.retry')}</Button>
        </Stack>
      ) : items.length === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          {t(filtered ? 'notifications.emptyFiltered' : 'notifications.empty')}
        </Text>
      ) : (
        <Stack gap="sm" component="section" aria-label={t('notifications.title')}>
          {items.map((item) => (
            <NotificationCard
              key={item.id}
              item={item}
              busy={mark.isPending && mark.variables?.id === item.id}
              onRead={() => act(item.id, 'read')}
              onAcknowledge={() => act(item.id, 'acknowledge')}
            />
          ))}
          {list.hasNextPage && (
            <Button
              variant="default"
              onClick={() => void list.fetchNextPage()}
              loading={list.isFetchingNextPage}
              style={{ alignSelf: 'center' }}
            >
              {t('notifications.loadMore')}
            </Button>
          )}
        </Stack>
      )}
    </Stack>
  );
}
