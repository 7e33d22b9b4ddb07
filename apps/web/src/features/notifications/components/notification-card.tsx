import { Anchor, Badge, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { deviceDetailPath, mondayOf, type NotificationItem } from '@phasewatch/shared';
import { IconBellOff, IconChartLine, IconCheck, IconMail, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone, formatServerDate, parseServerDate, toZonedString } from '@/lib/dates';
import { dateTimeFormat } from '@/lib/intl';
import { describeNotification, formatDuration, LEVEL_COLOR } from '../notification-text';

/** Active is a filled badge: red.9 keeps white text at 4.5:1 and more (red.6 was 3.3:1). */
const STATE_COLOR: Record<NotificationItem['state'], string> = { active: 'red.9', acknowledged: 'blue', cleared: 'gray' };

/**
 * The device page's chart on the local day the alarm began, in 15-minute steps; for a week that failed
 * EN 50160 the week's power-quality report (its Monday found from mid-week, so a zone a few hours apart
 * from the report's still names the same week).
 */
export function chartLink(item: NotificationItem): string {
  if (item.kind === 'quality_week_failed') {
    const start = parseServerDate(item.startedAt)?.getTime() ?? 0;
    return `${paths.deviceQuality(item.deviceId)}?week=${mondayOf(start + 3.5 * 86_400_000, effectiveTimezone(storedTimezone()))}`;
  }
  const date = toZonedString(item.startedAt, undefined, 'YYYY-MM-DD');
  return `${deviceDetailPath(item.deviceTypeCode, item.deviceId)}?date=${date}&interval=15m`;
}

export interface NotificationCardProps {
  item: NotificationItem;
  busy: boolean;
  onRead(): void;
  onAcknowledge(): void;
}

/** One alarm of the list: what, where, when and how long, whether and how it was sent, and its actions. */
export function NotificationCard({ item, busy, onRead, onAcknowledge }: NotificationCardProps) {
  const { t, i18n } = useTranslation();
  const date = (v: string) => formatServerDate(v, { locale: i18n.language });
  // An end on the day of the start shows only its time.
  const end = (from: string, to: string) => {
    const sameDay = toZonedString(from, undefined, 'YYYY-MM-DD') === toZonedString(to, undefined, 'YYYY-MM-DD');
    const at = parseServerDate(to);
    if (!sameDay || !at) return date(to);
    return dateTimeFormat(i18n.language, { timeStyle: 'short', timeZone: effectiveTimezone(storedTimezone()) }).format(at);
  };
  const isEvent = item.kind === 'online';
  const when = isEvent
    ? t('notifications.at', { date: date(item.startedAt) })
    : item.endedAt
      ? `${t('notifications.period', { from: date(item.startedAt), to: end(item.startedAt, item.endedAt) })} · ${t('notifications.lasted', { duration: formatDuration(t, item.durationSeconds) })}`
      : `${t('notifications.started', { date: date(item.startedAt) })} · ${t('notifications.ongoing', { duration: formatDuration(t, item.durationSeconds) })}`;
  const title = t(`notifications.kinds.${item.kind}`);
  return (
    <Card
      withBorder
      padding="sm"
      component="article"
      aria-label={`${title}: ${item.deviceName}`}
      data-notification={item.id}
      data-state={item.state}
      data-read={item.read}
      style={{ borderLeft: `4px solid var(--mantine-color-${LEVEL_COLOR[item.level]}-6)` }}
    >
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Group gap={8} wrap="wrap" style={{ minWidth: 0 }}>
            {/* The unread dot stays beside a title that wraps. */}
            <Group gap={8} wrap="nowrap">
              {!item.read && (
                <Box
                  component="span"
                  w={8}
                  h={8}
                  bg="red.6"
                  style={{ borderRadius: '50%', flexShrink: 0 }}
                  role="img"
                  aria-label={t('notifications.unread')}
                />
              )}
              <Text fw={item.read ? 500 : 700}>{title}</Text>
            </Group>
            <Anchor component={Link} to={deviceDetailPath(item.deviceTypeCode, item.deviceId)} size="sm" c="dimmed" underline="hover">
              {item.deviceName}
            </Anchor>
          </Group>
          {!isEvent && (
            <Badge color={STATE_COLOR[item.state]} variant={item.state === 'active' ? 'filled' : 'light'} style={{ flexShrink: 0 }}>
              {t(`notifications.states.${item.state}`)}
            </Badge>
          )}
        </Group>
        <Text size="sm">{describeNotification(t, i18n.language, item)}</Text>
        <Text size="xs" c="dimmed">
          {when}
          {item.occurrences > 1 && ` · ${t('notifications.flapped', { count: item.occurrences })}`}
        </Text>
        {(item.held || item.sent.push || item.sent.email) && (
          <Group gap="xs">
            {item.held && (
              <Badge color="gray" variant="outline" leftSection={<IconBellOff size={12} />} style={{ textTransform: 'none' }}>
                {t(`notifications.held.${item.held}`)}
              </Badge>
            )}
            {item.sent.push && (
              <Badge color="teal" variant="light" leftSection={<IconSend size={12} />} style={{ textTransform: 'none' }}>
                {t('notifications.sent.push')}
              </Badge>
            )}
            {item.sent.email && (
              <Badge color="teal" variant="light" leftSection={<IconMail size={12} />} style={{ textTransform: 'none' }}>
                {t('notifications.sent.email')}
              </Badge>
            )}
          </Group>
        )}
        <Group gap="xs" mt={2}>
          {item.state === 'active' && !isEvent && (
            <Button size="compact-sm" leftSection={<IconCheck size={14} />} onClick={onAcknowledge} loading={busy}>
              {t('notifications.acknowledge')}
            </Button>
          )}
          {!item.read && (
            <Button size="compact-sm" variant="default" onClick={onRead} disabled={busy}>
              {t('notifications.markRead')}
            </Button>
          )}
          {!isEvent && (
            <Button size="compact-sm" variant="subtle" component={Link} to={chartLink(item)} leftSection={<IconChartLine size={14} />}>
              {t(item.kind === 'quality_week_failed' ? 'notifications.viewWeekReport' : 'notifications.viewChart')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
