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
}
