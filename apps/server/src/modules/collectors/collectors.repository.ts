import { isStorableId } from '@phasewatch/shared';
import type { Kysely } from 'kysely';
import type { RunnerStatus } from '../../collectors/runner.js';
import type { CollectorRow, CollectorsTable, Database } from '../../storage/schema.js';

/** A collected device with what reading it needs: its owner's timezone and identity for ingest. */
export type CollectorWithDevice = CollectorRow & { mac: string; timezone: string };

/** The only code touching the collectors table. */
export class CollectorsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: CollectorsTable): Promise<void> {
    await this.db.insertInto('collectors').values(row).execute();
  }

  findForUser(userId: number, deviceId: number): Promise<CollectorRow | undefined> {
    if (!isStorableId(deviceId)) return Promise.resolve(undefined);
    return this.db.selectFrom('collectors').selectAll().where('device_id', '=', deviceId).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Every collected device with its MAC and its owner's timezone (at start). */
  all(): Promise<CollectorWithDevice[]> {
    return this.db
      .selectFrom('collectors')
      .innerJoin('devices', 'devices.id', 'collectors.device_id')
      .innerJoin('users', 'users.id', 'collectors.user_id')
      .selectAll('collectors')
      .select(['devices.mac as mac', 'users.timezone as timezone'])
      .execute();
  }

  async update(
    userId: number,
    deviceId: number,
    patch: Partial<Pick<CollectorsTable, 'address' | 'device_key' | 'poll_seconds' | 'kind'>>,
  ): Promise<void> {
    await this.db
      .updateTable('collectors')
      .set({ ...patch, failures: 0, last_error: null, last_error_key: null, last_error_at: null })
      .where('device_id', '=', deviceId)
      .where('user_id', '=', userId)
      .execute();
  }

  async recordStatus(deviceId: number, s: RunnerStatus): Promise<void> {
    await this.db
      .updateTable('collectors')
      .set({
        last_success_at: s.lastSuccessAt,
        last_error: s.lastError === null ? null : s.lastError.slice(0, 500),
        last_error_key: s.lastErrorKey,
        last_error_at: s.lastErrorAt,
        failures: s.failures,
      })
      .where('device_id', '=', deviceId)
      .execute();
  }
}
