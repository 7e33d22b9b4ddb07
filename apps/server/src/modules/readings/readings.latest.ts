import { type Kysely, sql } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { decodeRawValue, RAW_COLUMNS } from './readings.raw.js';

/** A device's newest raw reading: epoch ms and the parameters it carried (nulls left out). */
export interface LatestRawReading {
  ts: number;
  values: Record<string, number>;
}

/** The statement of `latestRawReadings` (exported for the query-plan test). */
export function latestRawReadingsQuery(userId: number, deviceId?: number) {
  const cols = RAW_COLUMNS.map((c) => sql.ref(`r.${c}`));
  return sql<Record<string, number | null>>`
    SELECT r.device_id, r.ts, ${sql.join(cols)}
    FROM devices d
    JOIN readings r ON r.device_id = d.id AND r.ts = (SELECT max(m.ts) FROM readings m WHERE m.device_id = d.id)
    WHERE d.user_id = ${userId}${deviceId === undefined ? sql`` : sql` AND d.id = ${deviceId}`}`;
}

/**
 * The newest raw row of each of a user's devices, in one query, so the device list answers with its
 * rows' latest readings instead of the web app asking once per device.
 *
 * Index-friendly on both dialects: the inner `max(ts)` for one device is answered from the end of the
 * (device_id, ts) primary key (SQLite's min/max optimisation; on PostgreSQL an index scan backwards per
 * month partition), and the row itself is then a primary-key lookup. No scan of a device's history.
 * `deviceId` narrows it to one device of the user.
 */
export async function latestRawReadings(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  userId: number,
  deviceId?: number,
): Promise<Map<number, LatestRawReading>> {
  const rows = await latestRawReadingsQuery(userId, deviceId).execute(db);
  const out = new Map<number, LatestRawReading>();
  for (const row of rows.rows) {
    const values: Record<string, number> = {};
    for (const c of RAW_COLUMNS) {
      const v = row[c];
      if (typeof v === 'number') values[c] = dialect === 'sqlite' ? decodeRawValue(v) : v;
    }
    out.set(Number(row.device_id), { ts: Number(row.ts), values });
  }
  return out;
}
