import { isStorableId } from '@phasewatch/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, TariffPriceRow, TariffRow, TariffsTable } from '../../storage/schema.js';

export type NewPrice = Omit<TariffPriceRow, 'tariff_id'>;

/** The only code touching the tariffs and tariff_prices tables. */
export class TariffsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's tariffs (all, or those of some locations), by location then name. */
  listForUser(userId: number, locationIds?: readonly number[]): Promise<TariffRow[]> {
    let q = this.db.selectFrom('tariffs').selectAll().where('user_id', '=', userId);
    if (locationIds) q = q.where('location_id', 'in', locationIds.length ? [...locationIds] : [-1]);
    return q.orderBy('location_id').orderBy('name').orderBy('id').execute();
  }

  findForUser(userId: number, id: number): Promise<TariffRow | undefined> {
    if (!isStorableId(id)) return Promise.resolve(undefined);
    return this.db.selectFrom('tariffs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Price lists of tariffs, oldest first, by tariff id. */
  async pricesOf(tariffIds: readonly number[]): Promise<Map<number, TariffPriceRow[]>> {
    const out = new Map<number, TariffPriceRow[]>(tariffIds.map((id) => [id, []]));
    if (tariffIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('tariff_prices')
      .selectAll()
      .where('tariff_id', 'in', [...tariffIds])
      .orderBy('valid_from')
      .execute();
    for (const r of rows) out.get(r.tariff_id)?.push(r);
    return out;
  }

  /** How many devices use each tariff as their default. */
  async deviceCounts(tariffIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (tariffIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('devices')
      .select(['default_tariff_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('default_tariff_id', 'in', [...tariffIds])
      .groupBy('default_tariff_id')
      .execute();
    for (const r of rows) if (r.default_tariff_id !== null) out.set(r.default_tariff_id, Number(r.n));
    return out;
  }

  /** Inserts a tariff with its price lists; when its location has no energy tariff yet, it becomes it. */
  async insert(row: Insertable<TariffsTable>, prices: readonly NewPrice[]): Promise<TariffRow> {
    return this.db.transaction().execute(async (trx) => {
      const t = await trx.insertInto('tariffs').values(row).returningAll().executeTakeFirstOrThrow();
      await trx
        .insertInto('tariff_prices')
        .values(prices.map((p) => ({ ...p, tariff_id: t.id })))
        .execute();
      await trx.updateTable('locations').set({ tariff_id: t.id }).where('id', '=', t.location_id).where('tariff_id', 'is', null).execute();
      return t;
    });
  }

  /** Replaces a tariff's fields and its whole price history; undefined when it is not the user's. */
  async update(userId: number, id: number, patch: Updateable<TariffsTable>, prices: readonly NewPrice[]): Promise<TariffRow | undefined> {
    if (!isStorableId(id)) return undefined;
    return this.db.transaction().execute(async (trx) => {
      const t = await trx
        .updateTable('tariffs')
        .set(patch)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst();
      if (!t) return undefined;
      await trx.deleteFrom('tariff_prices').where('tariff_id', '=', id).execute();
      await trx
        .insertInto('tariff_prices')
        .values(prices.map((p) => ({ ...p, tariff_id: id })))
        .execute();
      return t;
    });
  }

  /**
   * Deletes a tariff and its price lists; devices using it keep working without a default tariff, and its
   * location loses it as energy tariff. False when it is not the user's.
   */
  async remove(userId: number, id: number): Promise<boolean> {
    if (!isStorableId(id)) return false;
    return this.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('tariffs').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (!found) return false;
      await trx
        .updateTable('devices')
        .set({ default_tariff_id: null })
        .where('user_id', '=', userId)
        .where('default_tariff_id', '=', id)
        .execute();
      await trx.updateTable('locations').set({ tariff_id: null }).where('user_id', '=', userId).where('tariff_id', '=', id).execute();
      await trx.deleteFrom('tariff_prices').where('tariff_id', '=', id).execute();
      await trx.deleteFrom('tariffs').where('id', '=', id).execute();
      return true;
    });
  }
}
