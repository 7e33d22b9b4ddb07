import { isStorableId } from '@phasewatch/shared';
import type { Kysely, Updateable } from 'kysely';
import type { Database, DeviceRow, DevicesTable } from '../../storage/schema.js';
import { type LatestRawReading, latestRawReadings } from '../readings/index.js';

export type NewDevice = Omit<
  DeviceRow,
  'id' | 'last_seen' | 'last_rssi' | 'last_status' | 'last_weak' | 'rollup_through' | 'share_ha' | 'role'
>;

/** The device and what ingest needs to know about its owner. */
export interface IngestIdentity {
  id: number;
  userId: number;
  mac: string;
  timezone: string;
}

/** The only code touching the devices table (deleting a device with its data is the readings repository's). */
export class DevicesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  /** Inserts a device; undefined when the user already has one with this MAC. */
  async insert(row: NewDevice): Promise<DeviceRow | undefined> {
    return this.db
      .insertInto('devices')
      .values({ ...row, last_status: 'offline', last_weak: 0 })
      .onConflict((oc) => oc.columns(['user_id', 'mac']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  findForUser(userId: number, id: number): Promise<DeviceRow | undefined> {
    // Ids beyond the column's range name no row (PostgreSQL would fail on them: integer out of range).
    if (!isStorableId(id)) return Promise.resolve(undefined);
    return this.db.selectFrom('devices').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  listForUser(userId: number): Promise<DeviceRow[]> {
    return this.db.selectFrom('devices').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  }

  /** Updates a user's device; undefined when it is not theirs, 'conflict' when the MAC is taken. */
  async update(userId: number, id: number, patch: Updateable<DevicesTable>): Promise<DeviceRow | undefined | 'conflict'> {
    if (!isStorableId(id)) return undefined;
    if (patch.mac) {
      const clash = await this.db
        .selectFrom('devices')
        .select('id')
        .where('user_id', '=', userId)
        .where('mac', '=', patch.mac)
        .where('id', '<>', id)
        .executeTakeFirst();
      if (clash) return 'conflict';
    }
    return this.db.updateTable('devices').set(patch).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  }

  async findByKeyHash(hash: string): Promise<IngestIdentity | undefined> {
    const row = await this.db
      .selectFrom('devices')
      .innerJoin('users', 'users.id', 'devices.user_id')
      .select(['devices.id as id', 'devices.user_id as userId', 'devices.mac as mac', 'users.timezone as timezone'])
      .where('devices.ingest_key_hash', '=', hash)
      .executeTakeFirst();
    return row;
  }

  /** `findByKeyHash` for many hashes in one query, by hash (unknown ones left out). */
  async findByKeyHashes(hashes: readonly string[]): Promise<Map<string, IngestIdentity>> {
    const out = new Map<string, IngestIdentity>();
    if (hashes.length === 0) return out;
    const rows = await this.db
      .selectFrom('devices')
      .innerJoin('users', 'users.id', 'devices.user_id')
      .select([
        'devices.id as id',
        'devices.user_id as userId',
        'devices.mac as mac',
        'users.timezone as timezone',
        'devices.ingest_key_hash as hash',
      ])
      .where('devices.ingest_key_hash', 'in', [...hashes])
      .execute();
    for (const { hash, ...identity } of rows) out.set(hash, identity);
    return out;
  }

  /** The newest raw reading of each of the user's devices (or of one of them), by device id. */
  latestReadings(userId: number, deviceId?: number): Promise<Map<number, LatestRawReading>> {
    return latestRawReadings(this.db, this.dialect, userId, deviceId);
  }

  userTimezone(userId: number): Promise<{ timezone: string } | undefined> {
    return this.db.selectFrom('users').select('timezone').where('id', '=', userId).executeTakeFirst();
  }

  /** Devices (all, or the given ids) with what the status check needs. */
  listStatus(ids?: readonly number[]) {
    let query = this.db
      .selectFrom('devices')
      .select(['id', 'user_id', 'last_seen', 'last_rssi', 'last_status', 'last_weak', 'reporting_interval_s']);
    if (ids) query = query.where('id', 'in', ids.length ? [...ids] : [-1]);
    return query.execute();
  }

  allIds(): Promise<number[]> {
    return this.db
      .selectFrom('devices')
      .select('id')
      .execute()
      .then((rows) => rows.map((r) => r.id));
  }
}

/**
 * What other modules read of devices: one of a user's devices, their list, the owner's timezone. Services
 * elsewhere depend on this, not on the repository; a job thread hands in a repository of its own connection.
 */
export type DeviceReads = Pick<DevicesRepository, 'findForUser' | 'listForUser' | 'userTimezone'>;
