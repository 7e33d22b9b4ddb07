import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { localDate, startOfDate } from '@phasewatch/shared';
import type { ProsumerRepository } from './prosumer.repository.js';
import { fetchRceDay } from './rce-import.js';

/** RCE business days are Polish dates; PSE publishes a day's prices the day before, ~14:00–15:00 Polish time. */
const PL = 'Europe/Warsaw';
const Q = 15 * 60_000;
const MINUTE = 60_000;

/** What the importer logs with (Fastify's logger fits). */
export interface RceImportLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RceImporterOptions {
  /** PSE's RCE endpoint (`RCE_SOURCE_URL`). */
  sourceUrl: string;
  log: RceImportLog;
  /** How often it looks for missing days (10 minutes). */
  everyMs?: number;
  /** How far back it catches up at most (60 days), however early a location's scheme started. */
  catchUpDays?: number;
  /** A claim without an end is taken over after this long (its instance died; 10 minutes). */
  leaseMs?: number;
  /** Tries per page within one attempt, and the first wait between them (3, 1 s; see `fetchRceDay`). */
  pageAttempts?: number;
  retryMs?: number;
  /** Wait before the day's next attempt after a failed one (5 minutes), doubled per attempt up to `maxBackoffMs` (6 h). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Days fetched per round at most (gentle on the source; the rest come next round). */
  daysPerRound?: number;
  /** The hour (Polish time) from which the next day's prices are asked for (14). */
  publishHour?: number;
  now?: () => number;
  fetchFn?: typeof fetch;
}

/** What a round did (tests and logs). */
export interface RceRound {
  wanted: string[];
  imported: string[];
  failed: string[];
}

const dayAfter = (day: string, n = 1) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/**
 * The daily RCE import (issue 33): every `everyMs` it works out the business days any location settled with
 * hourly RCE (`net-billing-rce`) needs — from the earliest scheme start, at most `catchUpDays` back, up to
 * tomorrow once PSE publishes (after `publishHour` Polish time) — and fetches the ones not stored yet from
 * `sourceUrl`, storing them as imported prices for everyone (`rce_prices`, user 0: what a user's own CSV
 * upload overrides). Each day is claimed in `rce_import_days` first, so with several instances on one
 * PostgreSQL only one fetches it. A failed attempt (source down, refused, a day not yet published) is logged
 * once and tried again after a backoff; nothing it does throws out of a round, so a failing source never
 * takes the server down. The fetch is I/O on the main thread (a day is ~100 rows).
 */
export class RceImporter {
  private readonly instance = `${os.hostname().slice(0, 30)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RceRound> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly repo: ProsumerRepository,
    private readonly o: RceImporterOptions,
  ) {
    this.now = o.now ?? Date.now;
  }

  /** Starts the rounds: one now, then every `everyMs`. */
  start(): void {
    if (this.timer || this.abort.signal.aborted) return;
    const tick = () => {
      void this.round();
      this.timer = setTimeout(tick, this.o.everyMs ?? 10 * MINUTE);
      this.timer.unref();
    };
    tick();
  }

  /** Stops the rounds; an attempt under way is aborted (its claim ends as failed, tried again later). */
  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round (a round already under way is answered instead of starting another). Never rejects. */
  round(): Promise<RceRound> {
    this.running ??= this.doRound()
      .catch((err: unknown): RceRound => {
        this.o.log.warn({ err }, 'RCE import: round failed');
        return { wanted: [], imported: [], failed: [] };
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** The business days wanted now, oldest first (empty when no location settles with hourly RCE). */
  async wantedDays(): Promise<string[]> {
    const since = await this.repo.rceNeededSince();
    if (since === null) return [];
    const now = this.now();
    const today = localDate(now, PL);
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: PL, hour: '2-digit', hourCycle: 'h23' }).format(now));
    const last = hour >= (this.o.publishHour ?? 14) ? dayAfter(today) : today;
    const earliest = dayAfter(today, -(this.o.catchUpDays ?? 60));
    const out: string[] = [];
    // Dates as text compare in calendar order.
    let d = since;
    if (d < earliest) d = earliest;
    for (; d <= last; d = dayAfter(d)) out.push(d);
    return out;
  }

  private async doRound(): Promise<RceRound> {
    const wanted = await this.wantedDays();
    const result: RceRound = { wanted, imported: [], failed: [] };
    if (wanted.length === 0) return result;
    const done = await this.repo.rceDaysDone(wanted[0] as string, wanted[wanted.length - 1] as string);
    let budget = this.o.daysPerRound ?? 14;
    // Newest first: tomorrow's and today's prices matter most; the catch-up follows over the next rounds.
    for (const day of [...wanted].reverse()) {
      if (this.abort.signal.aborted || budget <= 0) break;
      if (done.has(day)) continue;
      const now = this.now();
      if (!(await this.repo.rceClaimDay(day, this.instance, now, this.o.leaseMs ?? 10 * MINUTE))) continue;
      budget--;
      if (await this.importDay(day)) result.imported.push(day);
      else result.failed.push(day);
    }
    return result;
  }

  /** Fetches and stores one claimed day; ends the claim as done or failed (with the next attempt's time). */
  private async importDay(day: string): Promise<boolean> {
    const from = startOfDate(day, PL);
    const to = startOfDate(dayAfter(day), PL);
    const expected = Math.round((to - from) / Q);
    try {
      // Stored already (an earlier run whose end was lost, or another path): nothing to fetch.
      const stored = await this.repo.rceImportedCount(from, to);
      if (stored >= expected) {
        await this.repo.rceDayEnded(day, this.instance, { doneAt: this.now(), rows: stored });
        return true;
      }
      const rows = (
        await fetchRceDay(this.o.sourceUrl, day, {
          attempts: this.o.pageAttempts ?? 3,
          retryMs: this.o.retryMs ?? 1000,
          signal: this.abort.signal,
          ...(this.o.fetchFn ? { fetchFn: this.o.fetchFn } : {}),
        })
      ).filter((r) => r.ts >= from && r.ts < to);
      await this.repo.saveRce(0, rows);
      if (rows.length < expected) throw new Error(`${rows.length} of ${expected} quarter prices published`);
      await this.repo.rceDayEnded(day, this.instance, { doneAt: this.now(), rows: rows.length });
      this.o.log.info({ day, rows: rows.length }, 'RCE import: day stored');
      return true;
    } catch (err) {
      const attempts = await this.repo.rceAttempts(day).catch(() => 1);
      const wait = Math.min(this.o.maxBackoffMs ?? 360 * MINUTE, (this.o.backoffMs ?? 5 * MINUTE) * 2 ** Math.max(0, attempts - 1));
      const nextAt = this.now() + wait;
      const error = err instanceof Error ? err.message : String(err);
      this.o.log.warn({ day, attempt: attempts, error, retryAt: new Date(nextAt).toISOString() }, 'RCE import: day not imported');
      await this.repo.rceDayEnded(day, this.instance, { nextAt, error }).catch(() => {});
      return false;
    }
  }
}
