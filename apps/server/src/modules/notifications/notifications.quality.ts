import { isNightTime, type Language, NOTIFICATION_KIND_LEVEL } from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { t } from '../../i18n/messages.js';
import type { DeliveryExtra, Dispatcher } from './notifications.dispatcher.js';
import { ruleDevice } from './notifications.engine.js';
import type { NotificationMetrics } from './notifications.metrics.js';
import type { NotificationsRepository } from './notifications.repository.js';
import type { AlarmStore } from './notifications.store.js';

/**
 * The weekly EN 50160 notification (issue 30): after each local Monday 00:00, a device whose
 * `qualityWeekFailed` switch is on gets its last week judged by the power-quality report, and a week that
 * failed is recorded as a `quality_week_failed` notification and delivered like the alarms (hub, push, mail).
 * A passing or not-assessable week sends nothing. Each judged week is stored in `quality_weeks` (migration
 * 0012) keyed by device and week: never judged twice, never sent twice, also with several instances on one
 * PostgreSQL (only the instance whose insert won sends).
 */

/** A phase of a week's report, as the check reads it. */
export interface QualityWeekPhase {
  phase: number;
  n: number;
  n1: number;
  n2: number;
  /** N1/N (0–1), null without valid bins. */
  n1Share: number | null;
  verdict: 'pass' | 'fail' | 'not-assessable';
}

/** A week's EN 50160 report as the check needs it. */
export interface QualityWeekReport {
  verdict: 'pass' | 'fail' | 'not-assessable';
  fromMs: number;
  toMs: number;
  /** The zone the week is local to (the device's location's, else its owner's). */
  timezone: string;
  phases: readonly QualityWeekPhase[];
}

/**
 * What the check needs of the power-quality module, handed in at wiring (app.ts): notifications do not
 * import it (the power-quality module sits beside them; see "Server modules" in docs/ARCHITECTURE.md).
 */
export interface QualityWeekSource {
  /** The Monday (`YYYY-MM-DD`) of the last complete local week at `now`, in the zone the device's report uses. */
  lastWeek(userId: number, deviceId: number, now: number): Promise<string | null>;
  /** The week's report; null when the device has none for it (no voltage readings, a week before its first). */
  report(userId: number, deviceId: number, week: string, now: number): Promise<QualityWeekReport | null>;
}

/** Threshold of N1/N the standard allows, in % (the notification's `threshold`). */
const N1_LIMIT_PERCENT = 5;
/** How often an instance looks for due weeks. */
export const QUALITY_CHECK_MS = 10_000;
/** Devices with the switch on looked at per tick at most (their last week and whether it was judged: 2–3 small queries each). */
const DEVICES_PER_TICK = 20;
/** Weeks computed per tick at most (a report from the 10-minute aggregate: ~25 ms of the main thread each). */
const REPORTS_PER_TICK = 2;

export interface QualityCheckOptions {
  repo: Pick<NotificationsRepository, 'qualityWeekDevices' | 'qualityWeekChecked'>;
  store: Pick<AlarmStore, 'recordQualityWeek' | 'insertAlarm'>;
  dispatcher: Pick<Dispatcher, 'deliver'>;
  source: QualityWeekSource;
  log: FastifyBaseLogger;
  metrics: NotificationMetrics;
  now?: () => number;
}

const pct1 = (share: number) => Math.round(share * 1000) / 10;

/**
 * Walks the devices with the switch on a few at a time, one tick every 10 s (`QUALITY_CHECK_MS`). What bounds
 * the work: one tick at a time, at most DEVICES_PER_TICK devices looked at and REPORTS_PER_TICK weeks computed
 * per tick; a report reads the 10-minute aggregate (about 25 ms a week on either dialect, measured by
 * `npm run bench -- quality`), so the check holds the main thread at most ~50 ms every 10 s (0.5 %), and
 * judges up to 720 weeks an hour (a fleet of 10,000 meters with the switch on in about 14 hours after Monday
 * 00:00). A week is judged once per device (its row in `quality_weeks`): after that each tick only reads the
 * device list and one row per device. With quiet hours on (`disableAtNight`), a device's week waits for the
 * morning (a week judged at 00:05 would be held as quiet hours and never pushed).
 */
export class QualityWeekCheck {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  /** The last device id looked at (the walk goes on from there; 0: from the start). */
  private cursor = 0;
  private readonly now: () => number;

  constructor(private readonly o: QualityCheckOptions) {
    this.now = o.now ?? Date.now;
  }

  start(everyMs = QUALITY_CHECK_MS): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => void this.tick().catch((err: unknown) => this.o.log.warn({ err }, 'weekly quality check failed')),
      everyMs,
    );
    this.timer.unref();
  }

  /** Stops the ticks and waits for the one under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** One tick (tests call it with a clock of their own): the number of notifications it recorded. */
  tick(now = this.now()): Promise<number> {
    if (this.running) return this.running;
    const run = this.walk(now).finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async walk(now: number): Promise<number> {
    let rows = await this.o.repo.qualityWeekDevices(this.cursor, DEVICES_PER_TICK);
    if (rows.length === 0 && this.cursor > 0) {
      this.cursor = 0;
      rows = await this.o.repo.qualityWeekDevices(0, DEVICES_PER_TICK);
    }
    let reports = 0;
    let sent = 0;
    for (const r of rows) {
      if (reports >= REPORTS_PER_TICK) break;
      this.cursor = r.id;
      const d = ruleDevice(r);
      if (d.settings.qualityWeekFailed !== true) continue;
      if (d.settings.disableAtNight && isNightTime(now, d.timezone)) continue;
      try {
        const week = await this.o.source.lastWeek(d.userId, d.id, now);
        if (week === null || (await this.o.repo.qualityWeekChecked(d.id, week))) continue;
        reports++;
        const report = await this.o.source.report(d.userId, d.id, week, now);
        const verdict = report?.verdict ?? 'none';
        // The instance whose row went in goes on; another one judged the week first.
        if (!(await this.o.store.recordQualityWeek(d.id, week, verdict, now))) continue;
        if (report?.verdict !== 'fail') continue;
        const failing = report.phases.filter((p) => p.verdict === 'fail');
        const worst = failing.reduce<QualityWeekPhase | undefined>(
          (a, b) => (a && (a.n1Share ?? 0) >= (b.n1Share ?? 0) ? a : b),
          undefined,
        );
        const held = d.settings.muteAll ? 'muted' : null;
        const row = await this.o.store.insertAlarm({
          user_id: d.userId,
          device_id: d.id,
          kind: 'quality_week_failed',
          level: NOTIFICATION_KIND_LEVEL.quality_week_failed,
          started_at: report.fromMs,
          ended_at: report.toMs,
          worst_value: worst ? pct1(worst.n1Share ?? 0) : null,
          worst_phase: worst?.phase ?? null,
          threshold: N1_LIMIT_PERCENT,
          held,
          created_at: now,
        });
        if (!row) continue;
        this.o.metrics.alarmRaised('quality_week_failed', held);
        sent++;
        await this.o.dispatcher.deliver(d, [row], now, qualityExtra(d.id, week, report, failing));
      } catch (err) {
        this.o.log.warn({ err, deviceId: d.id }, 'weekly quality check of a device failed; it is tried again at the next pass');
      }
    }
    if (rows.length < DEVICES_PER_TICK && reports < REPORTS_PER_TICK) this.cursor = 0;
    return sent;
  }
}

/** The link to the week's report. */
export const qualityPath = (deviceId: number, week: string) => `/device/quality/${deviceId}?week=${week}`;

/** The report's link and the failing phases' lines (push and mail). */
export function qualityExtra(
  deviceId: number,
  week: string,
  report: QualityWeekReport,
  failing: readonly QualityWeekPhase[],
): DeliveryExtra {
  return {
    path: qualityPath(deviceId, week),
    lines: (lng: Language) => [
      t(lng, 'quality.week', {
        from: localDate(report.fromMs, report.timezone),
        to: localDate(report.toMs - 1, report.timezone),
        zone: report.timezone,
      }),
      ...failing.map((p) =>
        t(lng, 'quality.phase', {
          phase: p.phase,
          share: new Intl.NumberFormat(lng, { maximumFractionDigits: 1 }).format(pct1(p.n1Share ?? 0)),
          n2: p.n2,
        }),
      ),
    ],
  };
}

/** `YYYY-MM-DD` of an instant in a zone. */
function localDate(ts: number, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ts);
}
