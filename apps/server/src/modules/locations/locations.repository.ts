import { isStorableId } from '@phasewatch/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, LocationRow, LocationsTable } from '../../storage/schema.js';
import type { PlacedDevice, TariffLocations } from '../tariffs/index.js';

/**
 * The only code touching the locations table, and the devices' placement columns (`location_id`,
 * `default_tariff_id`, which 0002 left to this module): everything else about devices is the devices
 * repository's.
 */
export class LocationsRepository implements TariffLocations {
  constructor(private readonly db: Kysely<Database>) {}

  listForUser(userId: number): Promise<LocationRow[]> {
    return this.db.selectFrom('locations').selectAll().where('user_id', '=', userId).orderBy('name').orderBy('id').execute();
  }

  findForUser(userId: number, id: number): Promise<LocationRow | undefined> {
    if (!isStorableId(id)) return Promise.resolve(undefined);
    return this.db.selectFrom('locations').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async insert(row: Insertable<LocationsTable>): Promise<LocationRow> {
    return this.db.insertInto('locations').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(userId: number, id: number, patch: Updateable<LocationsTable>): Promise<LocationRow | undefined> {
    if (!isStorableId(id)) return Promise.resolve(undefined);
    return this.db.updateTable('locations').set(patch).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  }

  /**
   * Deletes a location with its tariffs (their price lists cascade) in one transaction; its devices stay,
   * without a location or default tariff. False when it is not the user's.
   */
  async remove(userId: number, id: number): Promise<boolean> {
    if (!isStorableId(id)) return false;
    return this.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('locations').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (!found) return false;
      await trx
        .updateTable('devices')
        .set({ location_id: null, default_tariff_id: null })
        .where('user_id', '=', userId)
        .where('location_id', '=', id)
        .execute();
      const tariffIds = (await trx.selectFrom('tariffs').select('id').where('location_id', '=', id).execute()).map((t) => t.id);
      if (tariffIds.length > 0) {
        // A device of another location cannot use them (placement is checked), but stale rows must not point anywhere.
        await trx
          .updateTable('devices')
          .set({ default_tariff_id: null })
          .where('user_id', '=', userId)
          .where('default_tariff_id', 'in', tariffIds)
          .execute();
        await trx.deleteFrom('tariff_prices').where('tariff_id', 'in', tariffIds).execute();
        await trx.deleteFrom('tariffs').where('id', 'in', tariffIds).execute();
      }
      await trx.deleteFrom('locations').where('id', '=', id).execute();
      return true;
    });
  }

  /** The user's devices with their placement (all, or those of some locations). */
  devicesOf(userId: number, locationIds?: readonly number[]): Promise<PlacedDevice[]> {
    let q = this.db
      .selectFrom('devices')
      .select(['id', 'name', 'type_code', 'location_id', 'default_tariff_id', 'role'])
      .where('user_id', '=', userId)
      .orderBy('id');
    if (locationIds) q = q.where('location_id', 'in', locationIds.length ? [...locationIds] : [-1]);
    return q.execute();
  }

  /** One device of the user with its placement. */
  deviceOf(userId: number, deviceId: number): Promise<PlacedDevice | undefined> {
    if (!isStorableId(deviceId)) return Promise.resolve(undefined);
    return this.db
      .selectFrom('devices')
      .select(['id', 'name', 'type_code', 'location_id', 'default_tariff_id', 'role'])
      .where('user_id', '=', userId)
      .where('id', '=', deviceId)
      .executeTakeFirst();
  }

  /** The user's country and timezone (a new location's timezone follows the country). */
  userInfo(userId: number): Promise<{ country: string; timezone: string } | undefined> {
    return this.db.selectFrom('users').select(['country', 'timezone']).where('id', '=', userId).executeTakeFirst();
  }
}
