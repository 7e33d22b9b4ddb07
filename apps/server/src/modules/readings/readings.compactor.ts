import type { FastifyBaseLogger } from 'fastify';
import type { ReadingsRepository } from './readings.repository.js';
import { floorTo, H1 } from './readings.rollup.js';

/** Readings this late (ms) after their hour still count as on time: the hour is rolled up after it. */
export const COMPACT_GRACE_MS = 2 * 60_000;
/** How often the compactor looks for hours to roll up. */
const TICK_MS = 2_000;
/** Writer time one compaction round may take (ingest waits behind it on SQLite). */
const ROUND_BUDGET_MS = 40;
/** Pause between rounds while work is left (catching up after downtime or a migration). */
const CATCH_UP_PAUSE_MS = 25;

/** The newest hour that may be rolled up at `now`. */
export const compactTarget = (now: number) => floorTo(now - COMPACT_GRACE_MS, H1);

/**
 * Moves devices' rollup watermarks forward in the background (see readings.repository.ts): every few
 * seconds a round of bounded length rolls up the closed hours of devices whose readings passed their
 * watermark, and rounds follow each other quickly while work is left. Raw rows are the durable truth:
 * a round lost to a crash is simply done again after the restart.
 *
 * Rounds also rebuild local days in an owner's new timezone, a month per writer call with what is left
 * of their budget (at least one step a round), so live ingest never waits behind a whole device's days.
 */
export class Compactor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Devices whose local days are being rebuilt, in which zone, and where the next step starts. */
  private readonly dayRebuilds = new Map<number, { tz: string; cursor: number | null }>();

  constructor(
    private readonly repo: ReadingsRepository,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(TICK_MS);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => {
        this.running = null;
      });
    }, ms);
    this.timer.unref();
  }

  /**
   * Asks for a device's local days to be rebuilt in `tz` (its owner's zone since a change), step by step
   * in the coming rounds; reads meanwhile fold the stored quarter-hours themselves.
   */
  rebuildDays(deviceId: number, tz: string): void {
    if (this.dayRebuilds.get(deviceId)?.tz === tz) return;
    this.dayRebuilds.set(deviceId, { tz, cursor: null });
  }

  /** Devices whose local days are waiting to be or being rebuilt. */
  get pendingDayRebuilds(): number {
    return this.dayRebuilds.size;
  }

  private async round(): Promise<void> {
    const started = performance.now();
    let more = false;
    try {
      more = await this.repo.compactDue(compactTarget(this.now()), ROUND_BUDGET_MS);
    } catch (err) {
      this.log.warn({ err }, 'rollup compaction failed; retrying');
    }
    // The power-quality aggregate of readings from before it existed, once the watermarks are due no more.
    if (!more) {
      try {
        more = await this.repo.backfillPq(Math.max(1, ROUND_BUDGET_MS - (performance.now() - started)));
      } catch (err) {
        this.log.warn({ err }, 'power-quality aggregate backfill failed; retrying');
      }
    }
    await this.dayRebuildSteps(started);
    this.schedule(more || this.dayRebuilds.size > 0 ? CATCH_UP_PAUSE_MS : TICK_MS);
  }

  /** Steps of the day rebuilds asked for, oldest first, while the round's budget lasts (one at least). */
  private async dayRebuildSteps(started: number): Promise<void> {
    do {
      const next = this.dayRebuilds.entries().next();
      if (next.done) return;
      const [deviceId, job] = next.value;
      try {
        const cursor = await this.repo.rebuildDaysStep(deviceId, job.tz, job.cursor);
        // Asked again (another zone) while the step ran: that request stands.
        if (this.dayRebuilds.get(deviceId) !== job) continue;
        if (cursor === null) this.dayRebuilds.delete(deviceId);
        else job.cursor = cursor;
      } catch (err) {
        // Dropped: the next read that finds the days stale asks again.
        this.dayRebuilds.delete(deviceId);
        this.log.warn({ err, deviceId }, 'local-day rebuild failed');
      }
    } while (!this.stopped && performance.now() - started < ROUND_BUDGET_MS);
  }

  /** Rebuilds the local days asked for to the end, without a time budget (tests). */
  async runDayRebuilds(): Promise<void> {
    while (this.dayRebuilds.size > 0) await this.dayRebuildSteps(Number.NEGATIVE_INFINITY);
  }

  /** Rolls up everything due now, without a time budget per round. */
  async runAll(now = this.now()): Promise<void> {
    while (await this.repo.compactDue(compactTarget(now), 1_000)) {}
    while (await this.repo.backfillPq(1_000)) {}
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
