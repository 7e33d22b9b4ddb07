import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types shared by both dialects. Times are epoch milliseconds (INTEGER in SQLite, BIGINT in
 * PostgreSQL, parsed to number), booleans are 0/1 integers, so one repository works on both.
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  full_name: string;
  country: string;
  timezone: string;
  language: string;
  created_at: number;
  updated_at: number;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  /** Sessions are families: a refresh rotates within one family, logout revokes the family. */
  family: string;
  expires_at: number;
  created_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  devices: DevicesTable;
  readings: ReadingsTable;
  rollup_packed: RollupPackedTable;
  rollup_day: RollupDayTable;
  login_attempts: LoginAttemptsTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  jobs: JobsTable;
  export_chunks: ExportChunksTable;
  comparisons: ComparisonsTable;
  collectors: CollectorsTable;
  instances: InstancesTable;
}

/** Sign-in attempts per throttle key in the current window (see modules/accounts/login-throttle.ts). */
export interface LoginAttemptsTable {
  /** SHA-256 of address and email. */
  key: string;
  window_start: number;
  count: number;
}

export interface DevicesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  friendly_name: string;
  type_code: number;
  type_name: string;
  /** Upper case with colons; unique per user. */
  mac: string;
  model: string;
  /** SHA-256 of the ingest key, which is shown once at registration. */
  ingest_key_hash: string;
  registered_at: number;
  modified_at: number;
  billing_start_date: string;
  billing_period_months: number;
  reporting_interval_s: number;
  location_id: number | null;
  default_tariff_id: number | null;
  /** JSON of the notification settings (a value object, never queried by field). */
  notifications: string;
  limit_warning: number;
  limit_critical: number;
  meter_value_kwh: number;
  last_seen: number | null;
  last_rssi: number | null;
  last_status: string;
  last_weak: number;
  /** Rollups hold every reading before this instant (a whole hour); later ones are read from raw rows. */
  rollup_through: Generated<number>;
  /** `grid`, `production`, `submeter`, `other`, or null: the default (migration 0013). */
  role: string | null;
}

/**
 * Raw readings, one wide row per device and timestamp; each catalogue parameter is a nullable column
 * of the same name (see `modules/readings/readings.raw.ts`; SQLite stores them scaled), reached through raw SQL.
 */
export interface ReadingsTable {
  device_id: number;
  ts: number;
}

/** A rollup level; parameter columns (`<p>_sum`, `<p>_first`, …) are reached through raw SQL. */
export interface RollupLevelTable {
  device_id: number;
  bucket: number;
  n: number;
}

/** UTC rollup levels (15 min, 1 h), one row per device, level, parameter and span of 96 buckets (see readings.packed.ts). */
export interface RollupPackedTable {
  device_id: number;
  /** Bucket width in ms. */
  width: number;
  /** Catalogue parameter, or `_n` for the reading counts. */
  param: string;
  span: number;
  data: Uint8Array;
}

/** Local days of the owner, one row per device and day, every parameter's figures in one blob (see readings.days.ts). */
export interface RollupDayTable extends RollupLevelTable {
  bucket_end: number;
  /** The zone the local day was computed in (the owner's at the time). */
  tz: string;
  data: Uint8Array;
}

export type DeviceRow = Selectable<DevicesTable>;

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

// Locations and tariffs (migration 0007): declared here, merged into `Database` (one block, one module).
export interface Database {
  locations: LocationsTable;
  tariffs: TariffsTable;
  tariff_prices: TariffPricesTable;
}

/** A user's place with its devices (migration 0007). */
export interface LocationsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  code: string;
  address: string;
  city: string;
  /** Canonical IANA name; statistics count local days here. */
  timezone: string;
  /** The energy tariff (one of the location's), or null. */
  tariff_id: number | null;
  created_at: number;
  modified_at: number;
}

/** A tariff of a location (migration 0007). */
export interface TariffsTable {
  id: Generated<number>;
  user_id: number;
  location_id: number;
  name: string;
  /** G11 … T3 (`group` is an SQL keyword). */
  tariff_group: string;
  preset_id: string | null;
  /** `local` or `cet`. */
  clock: string;
  currency: string;
  /** `PL`, `TR` or null. */
  holiday_calendar: string | null;
  /** JSON of the zone schedule (a value object, read whole). */
  schedule: string;
  created_at: number;
  modified_at: number;
}

/** A price list of a tariff, valid from its day until the next one's (migration 0007). */
export interface TariffPricesTable {
  tariff_id: number;
  valid_from: string;
  area1: number;
  area2: number | null;
  area3: number | null;
  fixed_monthly: number;
  /** The energy part of each area's price (migration 0013). */
  energy_area1: number | null;
  energy_area2: number | null;
  energy_area3: number | null;
}

export type LocationRow = Selectable<LocationsTable>;
export type TariffRow = Selectable<TariffsTable>;
export type TariffPriceRow = Selectable<TariffPricesTable>;

/** Alarms and events of the notification rules (migration 0009; see modules/notifications/). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  device_id: number;
  kind: string;
  level: string;
  started_at: number;
  /** Null while the condition holds (at most one such row per device and kind). */
  ended_at: number | null;
  worst_value: number | null;
  worst_phase: number | null;
  threshold: number | null;
  occurrences: Generated<number>;
  /** Why delivery was held (quietHours, muted, late, interval), or null. */
  held: string | null;
  push_sent: Generated<number>;
  email_sent: Generated<number>;
  read_at: number | null;
  acknowledged_at: number | null;
  created_at: number;
}

/** Web Push subscriptions of users' browsers. */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  /** SHA-256 of the endpoint (unique). */
  endpoint_hash: string;
  p256dh: string;
  auth: string;
  created_at: number;
  last_success_at: number | null;
}

/** The weeks the weekly EN 50160 check judged (migration 0012; modules/notifications/notifications.quality.ts). */
export interface QualityWeeksTable {
  device_id: number;
  /** The local Monday, `YYYY-MM-DD`. */
  week: string;
  /** `pass`, `fail`, `not-assessable`, or `none` (no report for the week). */
  verdict: string;
  checked_at: number;
}
export interface Database {
  quality_weeks: QualityWeeksTable;
}

export type NotificationRow = Selectable<NotificationsTable>;
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/** The stored job queue (jobs/job-queue.ts): one row per background job. */
export interface JobsTable {
  /** A UUID: the hub's `exportReady` names it as text. */
  id: string;
  /** Which queue (and so which handler) the job belongs to: `exports`. */
  queue: string;
  user_id: number;
  /** JSON of what the handler needs. */
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  /** 0…1 while running. */
  progress: Generated<number>;
  attempts: Generated<number>;
  /** The instance running it, and until when its claim holds without a heartbeat. */
  claimed_by: string | null;
  lease_until: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** When a finished job and its file are deleted. */
  expires_at: number | null;
  error: string | null;
  /** JSON of what the handler answered (an export's size, columns). */
  result: string | null;
}

/** A finished export's file, in pieces of up to 1 MB, in order of `seq`. */
export interface ExportChunksTable {
  job_id: string;
  /** The run of the job that wrote it (the job's `attempts` then). */
  attempt: number;
  seq: number;
  data: Uint8Array;
}

/** Saved comparisons of the analytics screen. */
export interface ComparisonsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** JSON array of `{ deviceId, parameter }`. */
  series: string;
  created_at: number;
  updated_at: number;
}

export type JobRow = Selectable<JobsTable>;
export type ComparisonRow = Selectable<ComparisonsTable>;

/** Devices Phasewatch reads itself (apps/server/src/collectors/): where, how often, and how it goes. */
export interface CollectorsTable {
  device_id: number;
  user_id: number;
  /** `fox-energy`, `shelly-gen2`, `shelly-gen1` or `tasmota`. */
  kind: string;
  /** URL of a polled device, or the MQTT topic of a Tasmota device. */
  address: string;
  /** The device's own key or password; needed to read it, never answered by the API. */
  device_key: string | null;
  poll_seconds: number;
  last_success_at: number | null;
  last_error: string | null;
  last_error_key: string | null;
  last_error_at: number | null;
  failures: number;
  created_at: number;
}
export type CollectorRow = Selectable<CollectorsTable>;

/** Live instances of a deployment (migration 0014): each writes its row every few seconds, removes it when it stops. */
export interface InstancesTable {
  id: string;
  started_at: number;
  seen_at: number;
}

/** Integrations (migration 0015): whether a device is shared with Home Assistant, and imports' summaries. */
export interface DevicesTable {
  /** 1: published to Home Assistant through MQTT discovery (HA_DISCOVERY). */
  share_ha: Generated<number>;
}
export interface Database {
  imports: ImportsTable;
}
/** One history import (modules/imports/): its job is the row of `jobs` with the same id. */
export interface ImportsTable {
  id: string;
  user_id: number;
  device_id: number;
  /** JSON of the import's summary so far (`ImportSummary`). */
  summary: string | null;
  updated_at: number;
}

// Prosumers (migration 0013; see modules/prosumer/).
export interface Database {
  prosumer_settings: ProsumerSettingsTable;
  rcem_user: RcemUserTable;
  rce_prices: RcePricesTable;
  rce_import_days: RceImportDaysTable;
}

/** The daily RCE import's claims and outcomes per business day (migration 0016; modules/prosumer/rce-importer.ts). */
export interface RceImportDaysTable {
  /** The business day, `YYYY-MM-DD` (Polish date). */
  day: string;
  attempts: Generated<number>;
  /** The next attempt starts no earlier (UTC ms). */
  next_at: number;
  claimed_by: string | null;
  lease_until: number | null;
  done_at: number | null;
  /** Quarter prices stored by the attempt that finished it. */
  rows: number | null;
  error: string | null;
}

/** How a location's PV is settled (issue 33). */
export interface ProsumerSettingsTable {
  location_id: number;
  user_id: number;
  scheme: string;
  since: string;
  installation_kw: number;
  coefficient: number;
  refund_cap: number;
  rcem_version: string;
  rce_clamp: string;
  coefficient_from: string;
  modified_at: number;
}

/** A user's own RCEm of a month (PLN/MWh, from an invoice). */
export interface RcemUserTable {
  user_id: number;
  month: string;
  price: number;
  entered_at: number;
}

/** RCE per 15-minute settlement period (PLN/MWh), keyed by the period's start (UTC ms); user 0: imported for everyone. */
export interface RcePricesTable {
  user_id: number;
  ts: number;
  price: number;
  published_at: number | null;
}
export type ProsumerSettingsRow = Selectable<ProsumerSettingsTable>;
