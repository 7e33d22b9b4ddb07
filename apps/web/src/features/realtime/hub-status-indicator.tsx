import { Badge } from '@mantine/core';
import type { HubConnectionStatus } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { useHubStatus } from './realtime-provider';

const COLORS: Record<HubConnectionStatus, string> = {
  connected: 'green',
  connecting: 'yellow',
  reconnecting: 'orange',
  disconnected: 'gray',
};

/** The hub's connection state for the layout header. */
export function HubStatusIndicator() {
  const { t } = useTranslation();
  const status = useHubStatus();
  return (
    // A native tooltip (title): Mantine's Tooltip would bring its positioning library into the first chunk.
    <Badge color={COLORS[status]} variant="dot" data-status={status} aria-live="polite" title={t('realtime.tooltip')}>
      {t(`realtime.status.${status}`)}
    </Badge>
  );
}
