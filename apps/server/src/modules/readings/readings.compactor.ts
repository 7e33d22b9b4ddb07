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
 */
export class Compactor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

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

  private async round(): Promise<void> {
    let more = false;
    try {
      more = await this.repo.compactDue(compactTarget(this.now()), ROUND_BUDGET_MS);
    } catch (err) {
      this.log.warn({ err }, 'rollup compaction failed; retrying');
    }
    this.schedule(more ? CATCH_UP_PAUSE_MS : TICK_MS);
  }

  /** Rolls up everything due now, without a time budget per round. */
  async runAll(now = this.now()): Promise<void> {
    while (await this.repo.compactDue(compactTarget(now), 1_000)) {}
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
