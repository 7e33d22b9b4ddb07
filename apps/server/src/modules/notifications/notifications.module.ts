import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { BaseContext } from '../../context.js';
import type { AppMetrics } from '../../metrics/metrics.js';
import type { Realtime } from '../../realtime/index.js';
import type { ResetMailer } from '../accounts/index.js';
import type { Telemetry } from '../telemetry/index.js';
import { HubChannel } from './channels/hub.channel.js';
import { MailChannel } from './channels/mail.channel.js';
import { PushChannel } from './channels/push.channel.js';
import { type ResolveHost, systemResolver } from './channels/push-endpoint.js';
import { Dispatcher } from './notifications.dispatcher.js';
import { billingPeriodEnergy } from './notifications.energy.js';
import { AlarmEngine } from './notifications.engine.js';
import { NotificationMetrics } from './notifications.metrics.js';
import { QUALITY_CHECK_MS, QualityWeekCheck, type QualityWeekSource } from './notifications.quality.js';
import { NotificationsRepository } from './notifications.repository.js';
import { notificationsRoutes } from './notifications.routes.js';
import { NotificationsService } from './notifications.service.js';
import { alarmStore } from './notifications.store.js';
import { passwordResetMail } from './notifications.texts.js';

/** Waits between delivery attempts of push and mail (five attempts in about a quarter of an hour). */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000] as const;

/** How the app builds the module (tests and benchmarks change these; the defaults are production's). */
export interface NotificationsBuildOptions {
  /** Evaluate the rules on ingest (default true; the ingest bench measures without them beside with them). */
  rules?: boolean;
  /** How push endpoint hosts are resolved (tests: a stub, so nothing is asked of any DNS server). */
  resolveHost?: ResolveHost;
  retryDelaysMs?: readonly number[];
  /** How often the weekly EN 50160 check looks for due weeks (default 10 s; null: never by itself, tests tick it). */
  qualityCheckMs?: number | null;
}

/** The notification module as the app and tests see it. */
export interface Notifications {
  service: NotificationsService;
  engine: AlarmEngine;
  push: PushChannel;
  mail: MailChannel | null;
  /** The weekly EN 50160 check (null when the app handed no power-quality report in). */
  quality: QualityWeekCheck | null;
  /**
   * Stops the rules (after the alarm changes under way are stored) and the channels. The app runs it before
   * the telemetry closes: on SQLite alarm changes are written on the readings writer thread.
   */
  close(): Promise<void>;
  /** Resolves when the rules have stored every alarm change so far and the channels sent what they could (tests). */
  settled(): Promise<void>;
}

const metricsByApp = new WeakMap<AppMetrics, NotificationMetrics>();
/** The module's metrics on the app's registry (one set per app: prom-client refuses a name twice). */
export function notificationMetrics(metrics: AppMetrics): NotificationMetrics {
  let m = metricsByApp.get(metrics);
  if (!m) {
    m = new NotificationMetrics(metrics.registry);
    metricsByApp.set(metrics, m);
  }
  return m;
}

/** The mail channel of `SMTP_URL`, or null without one (the password-reset link then goes to the log). */
export function createMailChannel(
  config: AppConfig,
  log: FastifyBaseLogger,
  metrics: AppMetrics,
  retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
): MailChannel | null {
  if (!config.smtpUrl) return null;
  return new MailChannel(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, delaysMs: retryDelaysMs },
    log.child({ module: 'mail' }),
    notificationMetrics(metrics),
  );
}

/** Password-reset links by the mail channel (accounts' `ResetMailer`), or null without one (the link goes to the log). */
export function passwordResetMailer(mail: MailChannel | null): ResetMailer | null {
  if (!mail) return null;
  return (lng, to, name, url) => mail.send(passwordResetMail(lng, to, name, url), 'password reset');
}

/**
 * Registers the notification routes under /api and starts the rules: they listen on the event bus for
 * committed readings and status changes; the channels (hub, Web Push, mail) deliver what they raise.
 * With `qualityWeeks` (the power-quality report, handed in by app.ts) the weekly EN 50160 check runs too,
 * from onReady to close.
 */
export async function createNotifications(
  app: FastifyInstance,
  base: BaseContext & { telemetry: Telemetry; realtime: Realtime; qualityWeeks?: QualityWeekSource },
  mail: MailChannel | null,
  opts: NotificationsBuildOptions = {},
): Promise<Notifications> {
  const { config, events } = base;
  const log = app.log.child({ module: 'notifications' });
  const metrics = notificationMetrics(base.metrics);
  const repo = new NotificationsRepository(base.storage.db);
  const store = alarmStore(repo, base.storage.sqlite ? base.telemetry.readingsRepository.writerThread : null);
  const push = new PushChannel(
    repo,
    {
      vapid: config.vapid,
      allowPrivate: config.pushAllowPrivateEndpoints,
      resolve: opts.resolveHost ?? systemResolver,
      delaysMs: opts.retryDelaysMs ?? RETRY_DELAYS_MS,
    },
    log,
    metrics,
  );
  metrics.watchQueues(() => ({ push: push.depth, email: mail?.depth ?? 0 }));
  const dispatcher = new Dispatcher(repo, store, new HubChannel(base.realtime, metrics), push, mail, { publicUrl: config.publicUrl }, log);
  const engine = new AlarmEngine({
    repo,
    store,
    dispatcher,
    periodEnergy: billingPeriodEnergy(base.telemetry.readings, base.storage),
    counterRules: { jitterRatio: config.energyJitterRatio, gapLimitMs: config.energyGapLimitMs },
    log,
    metrics,
  });
  const service = new NotificationsService(repo, push);
  const quality = base.qualityWeeks ? new QualityWeekCheck({ repo, store, dispatcher, source: base.qualityWeeks, log, metrics }) : null;
  const qualityEvery = opts.qualityCheckMs === undefined ? QUALITY_CHECK_MS : opts.qualityCheckMs;
  if (quality && qualityEvery !== null) app.addHook('onReady', async () => quality.start(qualityEvery));

  if (opts.rules !== false) events.on('readingsCommitted', engine.onReadings);
  events.on('deviceStatusChanged', engine.onStatus);
  events.on('deviceDeleted', engine.onDeleted);
  events.on('deviceSettingsChanged', engine.onSettingsChanged);

  await app.register(
    async (api) => {
      await api.register(notificationsRoutes, { notifications: service, vapidPublicKey: push.publicKey });
    },
    { prefix: '/api' },
  );

  return {
    service,
    engine,
    push,
    mail,
    quality,
    async close() {
      await quality?.stop();
      events.off('readingsCommitted', engine.onReadings);
      events.off('deviceStatusChanged', engine.onStatus);
      events.off('deviceDeleted', engine.onDeleted);
      events.off('deviceSettingsChanged', engine.onSettingsChanged);
      await engine.close();
      push.stop();
      mail?.close();
    },
    async settled() {
      await engine.settled();
      await Promise.all([push.drained(), mail?.drained()]);
      await dispatcher.recorded();
    },
  };
}
