import { Counter, Gauge, type Registry } from 'prom-client';

export type Channel = 'hub' | 'push' | 'email';
export type Outcome = 'sent' | 'retry' | 'failed' | 'dropped' | 'gone';

/**
 * The notification module's metrics, on the app's registry (served at /metrics): deliveries by channel
 * and outcome (a failing channel shows as `failed` and `retry`), alarms raised by kind, rule storage
 * failures, and each channel's queue.
 */
export class NotificationMetrics {
  private readonly deliveries: Counter<'channel' | 'outcome'>;
  private readonly raised: Counter<'kind' | 'held'>;
  private readonly ruleErrors: Counter;
  private queues: () => Record<string, number> = () => ({});

  constructor(registry: Registry | null) {
    const registers = registry ? [registry] : [];
    this.deliveries = new Counter({
      name: 'phasewatch_notification_deliveries_total',
      help: 'Notification deliveries by channel (hub, push, email) and outcome (sent, retry, failed, dropped, gone: a push subscription the service no longer knows)',
      labelNames: ['channel', 'outcome'] as const,
      registers,
    });
    this.raised = new Counter({
      name: 'phasewatch_alarms_raised_total',
      help: 'Alarms and events raised by the notification rules, by kind and by why delivery was held (none: delivered)',
      labelNames: ['kind', 'held'] as const,
      registers,
    });
    this.ruleErrors = new Counter({
      name: 'phasewatch_notification_rule_errors_total',
      help: 'Alarm changes the rules could not store (the device state is read again from the database)',
      registers,
    });
    const queues = () => this.queues();
    new Gauge({
      name: 'phasewatch_notification_queue',
      help: 'Deliveries waiting or under way, by channel',
      labelNames: ['channel'] as const,
      registers,
      collect() {
        for (const [channel, depth] of Object.entries(queues())) this.set({ channel }, depth);
      },
    });
  }

  watchQueues(fn: () => Record<string, number>): void {
    this.queues = fn;
  }

  delivery(channel: Channel, outcome: Outcome, n = 1): void {
    this.deliveries.inc({ channel, outcome }, n);
  }

  alarmRaised(kind: string, held: string | null): void {
    this.raised.inc({ kind, held: held ?? 'none' });
  }

  ruleError(): void {
    this.ruleErrors.inc();
  }
}
