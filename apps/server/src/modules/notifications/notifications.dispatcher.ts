import type { Language, NotificationSettings } from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { languageOf } from '../../i18n/messages.js';
import type { NotificationRow } from '../../storage/schema.js';
import type { HubChannel } from './channels/hub.channel.js';
import type { MailChannel } from './channels/mail.channel.js';
import type { PushChannel } from './channels/push.channel.js';
import type { NotificationsRepository } from './notifications.repository.js';
import { KIND_ORDER } from './notifications.rules.js';
import type { AlarmStore } from './notifications.store.js';
import { alarmMail, pushPayload } from './notifications.texts.js';

/** The device an alarm belongs to, as delivery needs it. */
export interface DeliveryDevice {
  id: number;
  userId: number;
  name: string;
  typeCode: number;
  settings: NotificationSettings;
}

/**
 * What a delivery adds to the alarms' own sentences (the weekly EN 50160 notification): the page the push
 * opens and the mail links to instead of the list, and lines in the user's language for the mail (in place
 * of "since …").
 */
export interface DeliveryExtra {
  path: string;
  lines(lng: Language): string[];
}

/**
 * Hands new alarms to the channels: the hub always; push and mail for the alarms not held, as the device's
 * settings ask (`pushEnabled`, `emailEnabled` with a mail server configured). Alarms raised together on
 * one device (one reading crossing several limits) go out as one push message and one mail. Nothing here
 * waits for a channel: sends are queued with retries.
 */
export class Dispatcher {
  constructor(
    private readonly repo: Pick<NotificationsRepository, 'userContact'>,
    private readonly store: Pick<AlarmStore, 'markSent'>,
    private readonly hub: HubChannel,
    private readonly push: PushChannel,
    private readonly mail: MailChannel | null,
    private readonly o: { publicUrl: string },
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Records of sends under way (which channels delivered an alarm). */
  private readonly recording = new Set<Promise<void>>();

  /** Resolves when the sends so far are recorded (tests). */
  async recorded(): Promise<void> {
    while (this.recording.size > 0) await Promise.allSettled([...this.recording]);
  }

  async deliver(device: DeliveryDevice, rows: readonly NotificationRow[], now: number, extra?: DeliveryExtra): Promise<void> {
    if (rows.length === 0) return;
    const sorted = [...rows].sort((a, b) => KIND_ORDER.indexOf(a.kind as never) - KIND_ORDER.indexOf(b.kind as never));
    this.hub.deliver(device.userId, device, sorted, now);
    const due = sorted.filter((r) => r.held === null);
    if (due.length === 0) return;
    const wantsPush = device.settings.pushEnabled;
    const wantsMail = device.settings.emailEnabled && this.mail !== null;
    if (!wantsPush && !wantsMail) return;
    const user = await this.repo.userContact(device.userId);
    if (!user) return;
    const lng = languageOf(user.language);
    const ids = due.map((r) => r.id);
    const sent = (channel: 'push' | 'email') => () => {
      const p = this.store
        .markSent(ids, channel)
        .catch((err: unknown) => this.log.warn({ err }, 'could not record a sent notification'))
        .finally(() => this.recording.delete(p));
      this.recording.add(p);
    };
    if (wantsPush) {
      const critical = due.some((r) => r.kind === 'limit_critical' || r.kind === 'offline');
      await this.push.send(
        device.userId,
        pushPayload(lng, device.id, device.name, due, extra?.path),
        critical ? 'high' : 'normal',
        sent('push'),
      );
    }
    if (wantsMail)
      this.mail?.send(
        alarmMail(lng, user.email, device, due, { publicUrl: this.o.publicUrl, timezone: user.timezone, extra }),
        'alarm',
        sent('email'),
      );
  }
}
