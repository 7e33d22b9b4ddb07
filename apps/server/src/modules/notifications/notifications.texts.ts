import { type Language, NOTIFICATION_KIND_UNIT, type NotificationKind } from '@phasewatch/shared';
import { t } from '../../i18n/messages.js';
import type { NotificationRow } from '../../storage/schema.js';
import { escapeHtml, type MailMessage } from './channels/mail.channel.js';
import type { PushPayload } from './channels/push.channel.js';
import type { DeliveryExtra } from './notifications.dispatcher.js';

/** The texts of push messages and mails, in the user's language (the server's catalogue, src/i18n). */

const numberFormats = new Map<string, Intl.NumberFormat>();
function formatNumber(lng: Language, value: number, digits: number): string {
  const key = `${lng}|${digits}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(lng, { maximumFractionDigits: digits });
    numberFormats.set(key, f);
  }
  return f.format(value);
}

function digitsOf(kind: NotificationKind): number {
  const unit = NOTIFICATION_KIND_UNIT[kind];
  return unit === 'kWh' ? 3 : unit === 'V' || unit === '%' ? 1 : 0;
}

/** The title of a kind ("Voltage drop"). */
export function kindTitle(lng: Language, kind: NotificationKind): string {
  return t(lng, `kind.${kind}`);
}

/** One sentence about an alarm: device, kind, value and the limit it crossed. */
export function alarmSentence(lng: Language, row: NotificationRow, deviceName: string): string {
  const kind = row.kind as NotificationKind;
  const digits = digitsOf(kind);
  return t(lng, `body.${kind}`, {
    device: deviceName,
    phase: row.worst_phase ?? 1,
    value: row.worst_value === null ? '' : formatNumber(lng, row.worst_value, digits),
    threshold: row.threshold === null ? '' : formatNumber(lng, row.threshold, digits),
  });
}

/** The push message of alarms raised together on one device (the most serious first); it opens `path` or the device's list. */
export function pushPayload(
  lng: Language,
  deviceId: number,
  deviceName: string,
  rows: readonly NotificationRow[],
  path?: string,
): PushPayload {
  const first = rows[0] as NotificationRow;
  const more = rows.length > 1 ? ` (${t(lng, 'push.more', { count: rows.length - 1 })})` : '';
  return {
    title: kindTitle(lng, first.kind as NotificationKind),
    body: `${alarmSentence(lng, first, deviceName)}${more}`,
    url: path ?? `/notifications?deviceId=${deviceId}`,
    tag: `device-${deviceId}-${first.kind}`,
    ids: rows.map((r) => r.id),
  };
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatTime(lng: Language, ts: number, tz: string): string {
  const key = `${lng}|${tz}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lng, { timeZone: tz, dateStyle: 'medium', timeStyle: 'short' });
    dateFormats.set(key, f);
  }
  return f.format(ts);
}

/** An alarm mail (plain text and HTML) of alarms raised together on one device. */
export function alarmMail(
  lng: Language,
  to: string,
  device: { id: number; name: string },
  rows: readonly NotificationRow[],
  ctx: { publicUrl: string; timezone: string; extra?: DeliveryExtra | undefined },
): MailMessage {
  const first = rows[0] as NotificationRow;
  const title = kindTitle(lng, first.kind as NotificationKind);
  const base = ctx.publicUrl.replace(/\/+$/, '');
  const listUrl = `${base}${ctx.extra?.path ?? `/notifications?deviceId=${device.id}`}`;
  const settingsUrl = `${base}/edit-device/${device.id}`;
  const lines = rows.map((r) => ({
    title: kindTitle(lng, r.kind as NotificationKind),
    sentence: alarmSentence(lng, r, device.name),
    since: ctx.extra
      ? ctx.extra.lines(lng).join('\n')
      : t(lng, 'mail.started', { time: formatTime(lng, r.started_at, ctx.timezone), zone: ctx.timezone }),
  }));
  const open = t(lng, ctx.extra ? 'quality.open' : 'mail.open');
  const footer = t(lng, 'mail.footer', { device: device.name });
  const text = [
    ...lines.flatMap((l) => [l.title, l.sentence, l.since, '']),
    `${open}: ${listUrl}`,
    '',
    '--',
    footer,
    `${t(lng, 'mail.settings')}: ${settingsUrl}`,
    '',
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${lng}"><body style="font-family:system-ui,sans-serif;color:#222;line-height:1.5">`,
    ...lines.map(
      (l) =>
        `<h2 style="font-size:18px;margin:0 0 4px">${escapeHtml(l.title)}</h2><p style="margin:0 0 4px">${escapeHtml(l.sentence)}</p><p style="margin:0 0 16px;color:#666">${l.since.split('\n').map(escapeHtml).join('<br>')}</p>`,
    ),
    `<p><a href="${escapeHtml(listUrl)}" style="color:#ff7300">${escapeHtml(open)}</a></p>`,
    `<hr style="border:none;border-top:1px solid #ddd"><p style="font-size:12px;color:#666">${escapeHtml(footer)} <a href="${escapeHtml(settingsUrl)}">${escapeHtml(t(lng, 'mail.settings'))}</a></p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: t(lng, 'mail.subject', { title, device: device.name }), text, html };
}

/** The password-reset mail. */
export function passwordResetMail(lng: Language, to: string, name: string, url: string): MailMessage {
  const greeting = t(lng, 'reset.greeting', { name: name || to });
  const text = [greeting, '', t(lng, 'reset.body'), url, '', t(lng, 'reset.ignore'), ''].join('\n');
  const html = [
    `<!doctype html><html lang="${lng}"><body style="font-family:system-ui,sans-serif;color:#222;line-height:1.5">`,
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(t(lng, 'reset.body'))}</p>`,
    `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:8px 16px;background:#ff7300;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(t(lng, 'reset.button'))}</a></p>`,
    `<p style="font-size:12px;color:#666">${escapeHtml(url)}</p>`,
    `<p style="color:#666">${escapeHtml(t(lng, 'reset.ignore'))}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: t(lng, 'reset.subject'), text, html };
}
