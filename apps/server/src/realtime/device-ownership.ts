import { sql } from 'kysely';
import type { Storage } from '../storage/database.js';
import type { OwnsDevice } from './dashboard-hub.js';

/**
 * Whether the device belongs to the user. The telemetry module exposed no ownership check when the hub
 * was written, so this asks the `devices` table (`id`, `user_id`) directly; raw SQL because the table's
 * Kysely types belong to that module. A missing table means no devices yet: nobody owns anything.
 */
export function devicesTableOwnership(storage: Storage): OwnsDevice {
  return async (userId, deviceId) => {
    try {
      const r = await sql<{ id: number }>`SELECT id FROM devices WHERE id = ${deviceId} AND user_id = ${userId}`.execute(storage.db);
      return r.rows.length > 0;
    } catch (err) {
      if (/no such table|does not exist/i.test(String(err))) return false;
      throw err;
    }
  };
}
