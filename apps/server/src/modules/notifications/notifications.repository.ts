import { isStorableId, type NotificationKind, type NotificationState } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { PerTurn } from '../../lib/per-turn.js';
import type { Database, NotificationRow, NotificationsTable, PushSubscriptionRow } from '../../storage/schema.js';
import type { Worse } from './notifications.rules.js';

/** A notification row with its device's name and type (what the list shows). */
export type NotificationWithDevice = NotificationRow & { device_name: string; device_type_code: number };

/** What the rules need of a device: settings, limits, billing, its owner's zone. */
export interface DeviceRuleRow {
  id: number;
  user_id: number;
  name: string;
  type_code: number;
  notifications: string;
  limit_warning: number;
  limit_critical: number;
  billing_start_date: string;
  billing_period_months: number;
  meter_value_kwh: number;
  timezone: string;
}

/** The latest alarm of each kind of a device, and when that kind was last sent. */
export interface LatestAlarm {
  row: NotificationRow;
  sentAt: number | null;
}

/** Who an alarm is delivered to. */
export interface UserContact {
  email: string;
  full_name: string;
  language: string;
  timezone: string;
}

export type NewAlarm = Omit<NotificationsTable, 'id' | 'occurrences' | 'push_sent' | 'email_sent' | 'read_at' | 'acknowledged_at'>;

/** A bound number typed as a double (PostgreSQL would otherwise infer `integer` from `x - 230`). */
const dbl = (v: number) => sql<number>`CAST(${v} AS double precision)`;

/** Whether a candidate worst value beats the stored one, per direction, as SQL. */
function beatsSql(direction: Worse, value: number) {
  if (direction === 'low') return sql<boolean>`(worst_value IS NULL OR ${dbl(value)} < worst_value)`;
  if (direction === 'high') return sql<boolean>`(worst_value IS NULL OR ${dbl(value)} > worst_value)`;
  return sql<boolean>`(worst_value IS NULL OR ABS(${dbl(value)} - 230) > ABS(worst_value - 230))`;
}
/** The columns of a worse value: set only where it beats the stored one (instances may race). */
function worseSet(direction: Worse, value: number, phase: number | null) {
  const beats = beatsSql(direction, value);
  return {
    worst_value: sql<number>`CASE WHEN ${beats} THEN ${dbl(value)} ELSE worst_value END`,
    worst_phase: sql<
      number | null
    >`CASE WHEN ${beats} THEN ${phase === null ? sql`NULL` : sql`CAST(${phase} AS integer)`} ELSE worst_phase END`,
  };
}

/** How many alarms one statement stores or looks up. */
const TURN_BATCH = 500;

/**
 * Calls made in one turn of the event loop, answered together by `run` in statements of `TURN_BATCH`
 * (each call gets the row `run` returns under its key, or undefined). A second call with a key already in
 * the statement goes in a later one, so every answer is its own. A fleet's arrival asks the rules for
 * hundreds of alarms at once (2,000 devices coming online, a quarter of them with a weak signal): one
 * statement each held the ingest's own queries up behind them.
 */
function perTurn<A, R>(key: (a: A) => string, keyOf: (r: R) => string, run: (part: A[]) => Promise<R[]>): (a: A) => Promise<R | undefined> {
  type Waiter = { a: A; resolve(r: R | undefined): void; reject(err: unknown): void };
  const answer = async (all: Waiter[]): Promise<void> => {
    let list = all;
    while (list.length > 0) {
      const seen = new Set<string>();
      const now: Waiter[] = [];
      const later: Waiter[] = [];
      for (const w of list) {
        const k = key(w.a);
        (seen.has(k) ? later : now).push(w);
        seen.add(k);
      }
      for (let i = 0; i < now.length; i += TURN_BATCH) {
        const part = now.slice(i, i + TURN_BATCH);
        try {
          const byKey = new Map((await run(part.map((w) => w.a))).map((r) => [keyOf(r), r]));
          for (const w of part) w.resolve(byKey.get(key(w.a)));
        } catch (err) {
          for (const w of part) w.reject(err);
        }
      }
      list = later;
    }
  };
  const turn = new PerTurn<Waiter>((list) => void answer(list));
  return (a) => new Promise((resolve, reject) => turn.add({ a, resolve, reject }));
}

const alarmKey = (r: { device_id: number; kind: string }) => `${r.device_id}|${r.kind}`;

/** The only code touching the notifications and push_subscriptions tables. */
export class NotificationsRepository {
  constructor(readonly db: Kysely<Database>) {}

  // ---------------------------------------------------------------- rules

  /** Devices with what the rules read of them and their owner's timezone (one select list for every caller). */
  private ruleDevices() {
    return this.db
      .selectFrom('devices')
      .innerJoin('users', 'users.id', 'devices.user_id')
      .select([
        'devices.id as id',
        'devices.user_id as user_id',
        'devices.name as name',
        'devices.type_code as type_code',
        'devices.notifications as notifications',
        'devices.limit_warning as limit_warning',
        'devices.limit_critical as limit_critical',
        'devices.billing_start_date as billing_start_date',
        'devices.billing_period_months as billing_period_months',
        'devices.meter_value_kwh as meter_value_kwh',
        'users.timezone as timezone',
      ]);
  }

  /** The devices the rules need (unknown ids left out). */
  devicesForRules(ids: readonly number[]): Promise<DeviceRuleRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.ruleDevices()
      .where('devices.id', 'in', [...ids])
      .execute();
  }

  /**
   * Devices whose weekly EN 50160 notification is on (`qualityWeekFailed` in their settings JSON, which
   * JSON.stringify writes without spaces), after `afterId` in id order, at most `limit`: the check walks
   * them a few at a time. The caller parses the settings (a LIKE match is a prefilter, not the decision).
   */
  qualityWeekDevices(afterId: number, limit: number): Promise<DeviceRuleRow[]> {
    return this.ruleDevices()
      .where('devices.notifications', 'like', '%"qualityWeekFailed":true%')
      .where('devices.id', '>', afterId)
      .orderBy('devices.id')
      .limit(limit)
      .execute();
  }

  /** Whether the weekly check judged this device's week already (on any instance). */
  async qualityWeekChecked(deviceId: number, week: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('quality_weeks')
      .select('device_id')
      .where('device_id', '=', deviceId)
      .where('week', '=', week)
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * Records the outcome of a device's week; true only for the insert that won (instances sharing the
   * database may judge the same week: the one whose row went in notifies, the others see false).
   */
  async recordQualityWeek(deviceId: number, week: string, verdict: string, at: number): Promise<boolean> {
    const rows = await this.db
      .insertInto('quality_weeks')
      .values({ device_id: deviceId, week, verdict, checked_at: at })
      .onConflict((oc) => oc.columns(['device_id', 'week']).doNothing())
      .returning('device_id')
      .execute();
    return rows.length === 1;
  }

  /** The latest alarm of each (device, kind) of these devices (open if one is), with when the kind was last sent. */
  async latestAlarms(deviceIds: readonly number[]): Promise<LatestAlarm[]> {
    if (deviceIds.length === 0) return [];
    const heads = await this.db
      .selectFrom('notifications')
      .select(({ fn }) => [fn.max('id').as('id'), fn.max(sql<number | null>`CASE WHEN held IS NULL THEN created_at END`).as('sent_at')])
      .where('device_id', 'in', [...deviceIds])
      .groupBy(['device_id', 'kind'])
      .execute();
    if (heads.length === 0) return [];
    const sent = new Map(heads.map((h) => [Number(h.id), h.sent_at === null ? null : Number(h.sent_at)]));
    const rows = await this.db
      .selectFrom('notifications')
      .selectAll()
      .where('id', 'in', [...sent.keys()])
      .execute();
    return rows.map((row) => ({ row, sentAt: sent.get(row.id) ?? null }));
  }

  /** Inserts an alarm unless the kind already has an open one on the device (another instance's): then undefined. */
  insertAlarm(a: NewAlarm): Promise<NotificationRow | undefined> {
    return this.insertTogether(a);
  }

  private readonly insertTogether = perTurn<NewAlarm, NotificationRow>(alarmKey, alarmKey, (part) =>
    this.db
      .insertInto('notifications')
      .values(part)
      .onConflict((oc) => oc.columns(['device_id', 'kind']).where('ended_at', 'is', null).doNothing())
      .returningAll()
      .execute(),
  );

  openAlarm(deviceId: number, kind: string): Promise<NotificationRow | undefined> {
    return this.openTogether({ device_id: deviceId, kind });
  }

  private readonly openTogether = perTurn<{ device_id: number; kind: string }, NotificationRow>(alarmKey, alarmKey, async (part) => {
    const rows: NotificationRow[] = [];
    for (const kind of new Set(part.map((p) => p.kind))) {
      const ids = part.filter((p) => p.kind === kind).map((p) => p.device_id);
      rows.push(
        ...(await this.db
          .selectFrom('notifications')
          .selectAll()
          .where('device_id', 'in', ids)
          .where('kind', '=', kind)
          .where('ended_at', 'is', null)
          .execute()),
      );
    }
    return rows;
  });

  /** Ends an open alarm; false when it had ended already (another instance cleared it). */
  async clearAlarm(id: number, endedAt: number, worst: number | null, phase: number | null, direction: Worse): Promise<boolean> {
    const r = await this.db
      .updateTable('notifications')
      .set(worst === null ? { ended_at: endedAt } : { ended_at: endedAt, ...worseSet(direction, worst, phase) })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Opens an ended alarm again (the condition flapped within the interval); false when it is open already. */
  async reopenAlarm(id: number, worst: number | null, phase: number | null, direction: Worse): Promise<boolean> {
    const r = await this.db
      .updateTable('notifications')
      .set((eb) => ({
        ended_at: null,
        occurrences: eb('occurrences', '+', 1),
        ...(worst === null ? {} : worseSet(direction, worst, phase)),
      }))
      .where('id', '=', id)
      .where('ended_at', 'is not', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Stores a worse value of an alarm (only if it is worse than the stored one: instances may race). */
  async worsen(id: number, worst: number, phase: number | null, direction: Worse): Promise<void> {
    await this.db
      .updateTable('notifications')
      .set(worseSet(direction, worst, phase))
      .where('id', '=', id)
      .execute();
  }

  /** The latest alarm of a device's kind if it ended at or after `since` (to reopen), else undefined. */
  recentlyEnded(deviceId: number, kind: NotificationKind, since: number): Promise<NotificationRow | undefined> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('kind', '=', kind)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
      .then((r) => (r && r.ended_at !== null && r.ended_at >= since ? r : undefined));
  }

  /** When a kind of a device was last sent (pushed or mailed: not held), or null. */
  async lastSent(deviceId: number, kind: NotificationKind): Promise<number | null> {
    const r = await this.db
      .selectFrom('notifications')
      .select(({ fn }) => fn.max('created_at').as('at'))
      .where('device_id', '=', deviceId)
      .where('kind', '=', kind)
      .where('held', 'is', null)
      .executeTakeFirst();
    return r?.at === null || r?.at === undefined ? null : Number(r.at);
  }

  /** An event (`online`) happened again within the interval: moves the existing entry to now. */
  async repeatEvent(id: number, at: number): Promise<void> {
    await this.db
      .updateTable('notifications')
      .set((eb) => ({ started_at: at, ended_at: at, occurrences: eb('occurrences', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async markSent(ids: readonly number[], channel: 'push' | 'email'): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('notifications')
      .set(channel === 'push' ? { push_sent: 1 } : { email_sent: 1 })
      .where('id', 'in', [...ids])
      .execute();
  }

  userContact(userId: number): Promise<UserContact | undefined> {
    return this.db.selectFrom('users').select(['email', 'full_name', 'language', 'timezone']).where('id', '=', userId).executeTakeFirst();
  }

  // ---------------------------------------------------------------- the user's list

  private withDevice() {
    return this.db
      .selectFrom('notifications')
      .innerJoin('devices', 'devices.id', 'notifications.device_id')
      .selectAll('notifications')
      .select(['devices.name as device_name', 'devices.type_code as device_type_code']);
  }

  /** A user's notifications, newest first, filtered; `limit + 1` rows tell whether there is a next page. */
  list(
    userId: number,
    f: {
      deviceId?: number | undefined;
      kind?: NotificationKind | undefined;
      state?: NotificationState | undefined;
      before?: number | undefined;
    },
    limit: number,
  ): Promise<NotificationWithDevice[]> {
    let q = this.withDevice().where('notifications.user_id', '=', userId);
    if (f.deviceId !== undefined) q = q.where('notifications.device_id', '=', isStorableId(f.deviceId) ? f.deviceId : -1);
    if (f.kind !== undefined) q = q.where('notifications.kind', '=', f.kind);
    if (f.state === 'cleared') q = q.where('notifications.ended_at', 'is not', null);
    if (f.state === 'active') q = q.where('notifications.ended_at', 'is', null).where('notifications.acknowledged_at', 'is', null);
    if (f.state === 'acknowledged')
      q = q.where('notifications.ended_at', 'is', null).where('notifications.acknowledged_at', 'is not', null);
    if (f.before !== undefined) q = q.where('notifications.id', '<', Math.min(f.before, 2_147_483_647));
    return q.orderBy('notifications.id', 'desc').limit(limit).execute();
  }

  findForUser(userId: number, id: number): Promise<NotificationWithDevice | undefined> {
    if (!isStorableId(id)) return Promise.resolve(undefined);
    return this.withDevice().where('notifications.id', '=', id).where('notifications.user_id', '=', userId).executeTakeFirst();
  }

  async unreadCount(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('notifications')
      .select(({ fn }) => fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Marks one read (and, acknowledging, acknowledged); false when it is not the user's. */
  async mark(userId: number, id: number, now: number, acknowledge: boolean): Promise<boolean> {
    if (!isStorableId(id)) return false;
    const r = await this.db
      .updateTable('notifications')
      .set((eb) => ({
        read_at: eb.fn.coalesce('read_at', sql<number>`${now}`),
        ...(acknowledge ? { acknowledged_at: eb.fn.coalesce('acknowledged_at', sql<number>`${now}`) } : {}),
      }))
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async markAllRead(userId: number, now: number): Promise<void> {
    await this.db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null).execute();
  }

  // ---------------------------------------------------------------- push subscriptions

  /** Stores a browser's subscription for the user (the same endpoint signed in as another user moves to this one). */
  async upsertSubscription(row: {
    user_id: number;
    endpoint: string;
    endpoint_hash: string;
    p256dh: string;
    auth: string;
    created_at: number;
  }) {
    await this.db
      .insertInto('push_subscriptions')
      .values(row)
      .onConflict((oc) =>
        oc.column('endpoint_hash').doUpdateSet({ user_id: row.user_id, p256dh: row.p256dh, auth: row.auth, created_at: row.created_at }),
      )
      .execute();
  }

  /** Removes the user's subscription of an endpoint; false when the user had none. */
  async deleteSubscription(userId: number, endpointHash: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where('endpoint_hash', '=', endpointHash)
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  /** A subscription the push service says is gone (404/410). */
  async deleteSubscriptionById(id: number): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
  }

  subscriptionsOf(userId: number): Promise<PushSubscriptionRow[]> {
    return this.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();
  }

  async subscriptionUsed(id: number, now: number): Promise<void> {
    await this.db.updateTable('push_subscriptions').set({ last_success_at: now }).where('id', '=', id).execute();
  }
}
