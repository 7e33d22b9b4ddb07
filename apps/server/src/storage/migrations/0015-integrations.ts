import { type Kysely, sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * Integrations (issue 31).
 *
 * - `imports`: a history import's summary (rows read, imported, duplicates, refused lines, time range),
 *   one row per import job, written while it runs; it goes with its job (`jobs`) when that expires.
 * - `devices.share_ha`: whether the owner shares the device with Home Assistant (MQTT discovery); off.
 * - PostgreSQL only: views for Grafana (`grafana_devices`, `grafana_power`, `grafana_voltage`, `grafana_daily_energy`) over
 *   the raw readings, with no key or account column, so a read-only role granted only these views can
 *   chart them (README: "Grafana").
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  await db.schema
    .createTable('imports')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('imports_user').on('imports').column('user_id').execute();
  await db.schema
    .alterTable('devices')
    .addColumn('share_ha', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect !== 'postgres') return;
  const time = sql.raw(`to_timestamp(r.ts / 1000.0) AS "time", r.ts`);
  await sql`CREATE VIEW grafana_devices AS
    SELECT d.id AS device_id, d.name AS device, d.user_id, d.type_name FROM devices d`.execute(db);
  await sql`CREATE VIEW grafana_power AS
    SELECT r.device_id, d.name AS device, d.user_id, ${time},
           r.pave1, r.pave2, r.pave3, r.power3phases
    FROM readings r JOIN devices d ON d.id = r.device_id`.execute(db);
  await sql`CREATE VIEW grafana_voltage AS
    SELECT r.device_id, d.name AS device, d.user_id, ${time},
           r.vave1, r.vave2, r.vave3, r.frq1
    FROM readings r JOIN devices d ON d.id = r.device_id`.execute(db);
  // A local day's energy: the counters' rise over the day's raw readings (a counter reset within the day
  // is not followed here; Phasewatch's own figures are).
  await sql`CREATE VIEW grafana_daily_energy AS
    SELECT x.device_id, x.device, x.user_id, x.day::timestamp AS "time", x.day,
           max(x.imp) - min(x.imp) AS import_kwh,
           max(x.exp) - min(x.exp) AS export_kwh
    FROM (
      SELECT r.device_id, d.name AS device, d.user_id,
             (to_timestamp(r.ts / 1000.0) AT TIME ZONE u.timezone)::date AS day,
             COALESCE(r.energy3phases_import, r.eai1 + r.eai2 + r.eai3, r.eai1) AS imp,
             COALESCE(r.energy3phases_export, r.eae1 + r.eae2 + r.eae3, r.eae1) AS exp
      FROM readings r JOIN devices d ON d.id = r.device_id JOIN users u ON u.id = d.user_id
    ) x
    GROUP BY x.device_id, x.device, x.user_id, x.day`.execute(db);
}
