import type { Kysely } from 'kysely';
import type { Database, ProsumerSettingsRow } from '../../storage/schema.js';

/** A device of a location with what its role needs. */
export interface RoleDevice {
  id: number;
  type_code: number;
  role: string | null;
  default_tariff_id: number | null;
}

/** The prosumer tables of migration 0013 (settings, the user's RCEm values, RCE prices). */
export class ProsumerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  devicesAt(userId: number, locationId: number): Promise<RoleDevice[]> {
    return this.db
      .selectFrom('devices')
      .select(['id', 'type_code', 'role', 'default_tariff_id'])
      .where('user_id', '=', userId)
      .where('location_id', '=', locationId)
      .orderBy('id')
      .execute();
  }

  settings(locationId: number): Promise<ProsumerSettingsRow | undefined> {
    return this.db.selectFrom('prosumer_settings').selectAll().where('location_id', '=', locationId).executeTakeFirst();
  }

  async saveSettings(row: ProsumerSettingsRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('prosumer_settings').where('location_id', '=', row.location_id).execute();
      await trx.insertInto('prosumer_settings').values(row).execute();
    });
  }

  async rcemOf(userId: number): Promise<Map<string, { price: number; enteredAt: number }>> {
    const rows = await this.db.selectFrom('rcem_user').select(['month', 'price', 'entered_at']).where('user_id', '=', userId).execute();
    return new Map(rows.map((r) => [r.month, { price: Number(r.price), enteredAt: Number(r.entered_at) }]));
  }

  async saveRcem(userId: number, month: string, price: number, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('rcem_user').where('user_id', '=', userId).where('month', '=', month).execute();
      await trx.insertInto('rcem_user').values({ user_id: userId, month, price, entered_at: now }).execute();
    });
  }

  /** RCE quarter prices with starts in [from, to) (UTC ms), in time order: the user's own win over imported ones. */
  async rce(userId: number, from: number, to: number): Promise<{ ts: number; price: number }[]> {
    const rows = await this.db
      .selectFrom('rce_prices')
      .select(['user_id', 'ts', 'price'])
      .where('user_id', 'in', [0, userId])
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .orderBy('ts')
      .execute();
    const byTs = new Map<number, { price: number; own: boolean }>();
    for (const r of rows) {
      const ts = Number(r.ts);
      const own = Number(r.user_id) === userId && userId !== 0;
      const had = byTs.get(ts);
      if (!had || (own && !had.own)) byTs.set(ts, { price: Number(r.price), own });
    }
    return [...byTs].sort((a, b) => a[0] - b[0]).map(([ts, v]) => ({ ts, price: v.price }));
  }

  /** Stores RCE quarter prices of a user (0: imported for everyone); a later value of the same quarter replaces the earlier. */
  async saveRce(userId: number, rows: readonly { ts: number; price: number; publishedAt: number | null }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) {
        const part = rows.slice(i, i + 500);
        await trx
          .deleteFrom('rce_prices')
          .where('user_id', '=', userId)
          .where(
            'ts',
            'in',
            part.map((r) => r.ts),
          )
          .execute();
        await trx
          .insertInto('rce_prices')
          .values(part.map((r) => ({ user_id: userId, ts: r.ts, price: r.price, published_at: r.publishedAt })))
          .execute();
      }
    });
  }

  /** RCE quarter starts in [from, to) of user 0 (imported) and of the user's own (uploaded), for the coverage screen. */
  async rceCoverage(userId: number, from: number, to: number): Promise<{ ts: number; own: boolean }[]> {
    const rows = await this.db
      .selectFrom('rce_prices')
      .select(['user_id', 'ts'])
      .where('user_id', 'in', [0, userId])
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .orderBy('ts')
      .execute();
    return rows.map((r) => ({ ts: Number(r.ts), own: Number(r.user_id) === userId && userId !== 0 }));
  }

  // The daily RCE import (rce-importer.ts; migration 0016).

  /** The earliest date any location settled with hourly RCE needs prices from, or null when none is. */
  async rceNeededSince(): Promise<string | null> {
    const row = await this.db
      .selectFrom('prosumer_settings')
      .select((eb) => eb.fn.min<string>('since').as('since'))
      .where('scheme', '=', 'net-billing-rce')
      .executeTakeFirst();
    return row?.since ?? null;
  }

  /** Business days in [from, to] (inclusive) the import finished. */
  async rceDaysDone(from: string, to: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('rce_import_days')
      .select('day')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .where('done_at', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.day));
  }

  /**
   * Claims a day for `instance` until `now + leaseMs`: true when this instance is the one to fetch it (not
   * done, its retry time reached, no live claim of another instance). A conditional update, so on one
   * PostgreSQL only one of several instances gets it.
   */
  async rceClaimDay(day: string, instance: string, now: number, leaseMs: number): Promise<boolean> {
    await this.db
      .insertInto('rce_import_days')
      .values({ day, next_at: now })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const res = await this.db
      .updateTable('rce_import_days')
      .set((eb) => ({ claimed_by: instance, lease_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
      .where('day', '=', day)
      .where('done_at', 'is', null)
      .where('next_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** The claimed day's attempts so far (this one included). */
  async rceAttempts(day: string): Promise<number> {
    const row = await this.db.selectFrom('rce_import_days').select('attempts').where('day', '=', day).executeTakeFirst();
    return Number(row?.attempts ?? 0);
  }

  /** Ends this instance's claim of a day: done (with the rows stored), or failed with when to try again. */
  async rceDayEnded(
    day: string,
    instance: string,
    outcome: { doneAt: number; rows: number } | { nextAt: number; error: string },
  ): Promise<void> {
    await this.db
      .updateTable('rce_import_days')
      .set(
        'doneAt' in outcome
          ? { done_at: outcome.doneAt, rows: outcome.rows, error: null, claimed_by: null, lease_until: null }
          : { next_at: outcome.nextAt, error: outcome.error.slice(0, 500), claimed_by: null, lease_until: null },
      )
      .where('day', '=', day)
      .where('claimed_by', '=', instance)
      .execute();
  }

  /** Imported (user 0) quarter prices stored with starts in [from, to). */
  async rceImportedCount(from: number, to: number): Promise<number> {
    const row = await this.db
      .selectFrom('rce_prices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', 0)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
