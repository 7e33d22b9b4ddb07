import {
  BoundedMap,
  billingPeriod,
  type CounterRules,
  deviceFigures,
  energyDirection,
  NOMINAL_VOLTAGE,
  NOTIFICATION_KIND_LEVEL,
  type NotificationKind,
  type NotificationSettings,
  WEAK_SIGNAL_DBM,
} from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceStatusChanged, ReadingsCommitted } from '../../events/bus.js';
import { PerTurn } from '../../lib/per-turn.js';
import type { NotificationRow } from '../../storage/schema.js';
import { notificationsOf } from '../devices/index.js';
import type { DeliveryDevice, Dispatcher } from './notifications.dispatcher.js';
import type { NotificationMetrics } from './notifications.metrics.js';
import type { DeviceRuleRow, LatestAlarm, NotificationsRepository } from './notifications.repository.js';
import {
  ConsumptionMeter,
  holdOf,
  isWorse,
  nextMove,
  type Observation,
  READING_KINDS,
  type ReadingKind,
  signalObservation,
  type VoltageExtremes,
  type VoltageSettings,
  voltageObservations,
  WORSE,
} from './notifications.rules.js';
import type { AlarmStore } from './notifications.store.js';

/** A device as the rules see it. */
export interface RuleDevice extends DeliveryDevice {
  timezone: string;
  voltage: VoltageSettings;
  billingStartDate: string;
  billingPeriodMonths: number;
  meterValueKwh: number;
  direction: 'import' | 'export';
}

/**
 * One alarm's row as the storage work knows it: its id is null until its insert ran. Work queued for an
 * alarm holds its handle, not the kind's state: the readings go on being judged while the work waits (on
 * SQLite behind the writer thread's flushes), and a new alarm of the kind must not take over the work of
 * the one before (its clear was lost that way, and the next alarm found the old one still open).
 */
interface AlarmHandle {
  id: number | null;
}

/** A condition's alarm on one device, as this instance knows it. */
interface KindState {
  open: boolean;
  /** The latest alarm (null: none yet). */
  alarm: AlarmHandle | null;
  endedAt: number | null;
  exists: boolean;
  worst: number | null;
  phase: number | null;
  /** When this kind was last pushed or mailed (the notification interval). */
  sentAt: number | null;
  worstWrittenAt: number;
  worstTimer: NodeJS.Timeout | null;
}

interface Raise {
  kind: ReadingKind;
  ks: KindState;
  alarm: AlarmHandle;
  obs: Observation;
  startedAt: number;
}

class DeviceState {
  lastTs = Number.NEGATIVE_INFINITY;
  meter: ConsumptionMeter | null = null;
  meterLoading = false;
  chain: Promise<void> = Promise.resolve();
  pendingOps = 0;
  /** Bumped by every change of an alarm: a refresh from storage is applied only if nothing changed meanwhile. */
  version = 0;
  refreshAt: number;
  readonly kinds: Record<ReadingKind, KindState>;

  constructor(
    public device: RuleDevice,
    now: number,
  ) {
    this.refreshAt = now + refreshDelay();
    this.kinds = Object.fromEntries(READING_KINDS.map((k) => [k, emptyKind()])) as Record<ReadingKind, KindState>;
  }
}

const emptyKind = (): KindState => ({
  open: false,
  alarm: null,
  endedAt: null,
  exists: false,
  worst: null,
  phase: null,
  sentAt: null,
  worstWrittenAt: 0,
  worstTimer: null,
});

/** How long a device's settings and alarms are used before they are read again (other instances' changes), ±25 %. */
const REFRESH_MS = 60_000;
const refreshDelay = () => REFRESH_MS * (0.75 + Math.random() * 0.5);
/**
 * A billing period's energy grows with every reading: its alarm's value is stored at most this often
 * (and when it ends). Other kinds get worse only at a new extreme (a few times a sag) and store each one.
 */
const CONSUMPTION_WRITE_MS = 30_000;
/** Devices read per query. */
const LOAD_BATCH = 500;
/**
 * Readings older than this when they arrive are stored without being judged: a year of history imported
 * or backfilled is not a year of alarms. A device's buffer after an outage of up to a day is judged (its
 * alarms are listed as late, not sent).
 */
export const RULES_HORIZON_MS = 24 * 3_600_000;
/** Readings waiting for a device's state to load, at most (beyond: the oldest commits are not judged). */
const MAX_PENDING = 64;

/** What the consumption rule starts from: the period's stored energy, and the newest reading it includes. */
export interface PeriodEnergy {
  energyKwh: number;
  latest: { ts: number; values: Record<string, number> } | null;
}

export interface EngineOptions {
  /** Reads of devices and their latest alarms (the app's connection). */
  repo: Pick<NotificationsRepository, 'devicesForRules' | 'latestAlarms'>;
  /** Where alarm changes are written (on SQLite a thread of their own: see notifications.store.ts). */
  store: AlarmStore;
  dispatcher: Pick<Dispatcher, 'deliver'>;
  /**
   * Energy of the device's current billing period so far (kWh), from the stored readings, then the newest
   * stored reading (read after the energy: a reading committed in between is then not counted twice).
   */
  periodEnergy(device: RuleDevice, now: number): Promise<PeriodEnergy>;
  counterRules: CounterRules;
  log: FastifyBaseLogger;
  metrics: NotificationMetrics;
  now?: () => number;
}

/** The device a stored row describes. */
export function ruleDevice(r: DeviceRuleRow): RuleDevice {
  const settings: NotificationSettings = notificationsOf(r);
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    typeCode: r.type_code,
    settings,
    timezone: r.timezone,
    voltage: {
      dropPercent: settings.voltageDropThreshold,
      risePercent: settings.voltageRiseThreshold,
      warningPercent: r.limit_warning,
      criticalPercent: r.limit_critical,
      limits: deviceFigures(r.type_code).limits,
    },
    billingStartDate: r.billing_start_date,
    billingPeriodMonths: r.billing_period_months,
    meterValueKwh: r.meter_value_kwh,
    direction: energyDirection(r.type_code),
  };
}

const PHASE_COLUMNS = [1, 2, 3].map((p) => ({ ave: `vave${p}`, min: `vmin${p}`, max: `vmax${p}` }));

/**
 * The notification rules at work. Each committed batch of readings is judged in memory against the
 * device's settings (no query per reading: the hot path at 2,000 devices a second adds a few comparisons
 * per reading); only changes of an alarm touch the database, one device's changes in order. A device's
 * state is read once (devices of one event-loop turn together) and again every minute, so instances
 * sharing a database follow each other's alarms; the open alarm of a kind is unique in the database, so
 * instances that see the same condition record one alarm and only the one whose insert won delivers it.
 */
export class AlarmEngine {
  private readonly states = new BoundedMap<number, DeviceState>(50_000);
  /** Work waiting for a device's state to be read. */
  private readonly waiting = new Map<number, ((s: DeviceState) => void)[]>();
  private readonly loads = new PerTurn<number>(() => void this.loadWaiting());
  private readonly due = new Set<number>();
  private refreshTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** The billing-period reads of the consumption rule, one after another. */
  private meterReads: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly o: EngineOptions) {
    this.now = o.now ?? Date.now;
  }

  // ---------------------------------------------------------------- events

  /** Judges a commit's readings (they are committed: nothing here can fail the ingest). */
  onReadings = (batch: ReadingsCommitted): void => {
    if (this.closed) return;
    const state = this.states.get(batch.deviceId);
    if (state && !this.waiting.has(batch.deviceId)) {
      this.evaluate(state, batch);
      if (this.now() >= state.refreshAt) this.scheduleRefresh(state);
      return;
    }
    this.whenLoaded(batch.deviceId, (s) => this.evaluate(s, batch));
  };

  /** Offline raises an alarm; online clears it and says so (the existing status rule decides which is which). */
  onStatus = (e: DeviceStatusChanged): void => {
    if (this.closed) return;
    const at = this.now();
    this.whenLoaded(e.deviceId, (s) => this.enqueue(s, () => (e.status === 'offline' ? this.offline(s, at) : this.online(s, at))));
  };

  onDeleted = ({ deviceId }: { deviceId: number }): void => {
    const s = this.states.get(deviceId);
    if (s) for (const ks of Object.values(s.kinds)) if (ks.worstTimer) clearTimeout(ks.worstTimer);
    this.states.delete(deviceId);
    this.waiting.delete(deviceId);
  };

  onSettingsChanged = ({ deviceId }: { deviceId: number }): void => {
    const s = this.states.get(deviceId);
    if (!s) return;
    s.refreshAt = 0;
    this.scheduleRefresh(s);
  };

  /** Waits for the alarm changes under way (at shutdown, before storage closes). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const [, s] of this.states) for (const ks of Object.values(s.kinds)) if (ks.worstTimer) clearTimeout(ks.worstTimer);
    const chains = [...this.states.values()].map((s) => s.chain);
    await Promise.race([Promise.allSettled(chains), new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  /** Resolves when every device's alarm changes so far are stored and the consumption meters started (tests). */
  async settled(): Promise<void> {
    await this.meterReads;
    for (;;) {
      const busy = [...this.states.values()].filter((s) => s.pendingOps > 0);
      if (busy.length === 0 && this.waiting.size === 0 && !this.loads.queued) return;
      await Promise.allSettled(busy.map((s) => s.chain));
      await new Promise((r) => setImmediate(r));
    }
  }

  // ---------------------------------------------------------------- loading

  private whenLoaded(deviceId: number, work: (s: DeviceState) => void): void {
    const list = this.waiting.get(deviceId);
    if (list) {
      if (list.length >= MAX_PENDING) list.shift();
      list.push(work);
      return;
    }
    const loaded = this.states.get(deviceId);
    if (loaded) {
      work(loaded);
      return;
    }
    this.waiting.set(deviceId, [work]);
    // Devices first seen in the same turn (a fleet arriving) are read together.
    this.loads.add(deviceId);
  }

  private async loadWaiting(): Promise<void> {
    const ids = [...this.waiting.keys()].filter((id) => !this.states.has(id));
    for (let i = 0; i < ids.length; i += LOAD_BATCH) {
      const part = ids.slice(i, i + LOAD_BATCH);
      try {
        const [rows, latest] = await Promise.all([this.o.repo.devicesForRules(part), this.o.repo.latestAlarms(part)]);
        const now = this.now();
        const byDevice = groupLatest(latest);
        for (const r of rows) {
          const s = new DeviceState(ruleDevice(r), now);
          applyLatest(s, byDevice.get(r.id) ?? []);
          this.states.set(r.id, s);
        }
      } catch (err) {
        this.o.log.warn({ err }, 'notification rules could not read devices; their readings are not judged');
        this.o.metrics.ruleError();
      }
      for (const id of part) {
        const work = this.waiting.get(id) ?? [];
        this.waiting.delete(id);
        const s = this.states.get(id);
        // A device deleted meanwhile (or unreadable): its work goes.
        if (s) for (const w of work) w(s);
      }
    }
  }

  private scheduleRefresh(s: DeviceState): void {
    s.refreshAt = Number.POSITIVE_INFINITY;
    this.due.add(s.device.id);
    if (this.refreshTimer || this.closed) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      void this.refreshDue();
    }, 1000);
    this.refreshTimer.unref();
  }

  /** Reads due devices again: settings always; alarms only where nothing changed while reading. */
  private async refreshDue(): Promise<void> {
    const ids = [...this.due];
    this.due.clear();
    for (let i = 0; i < ids.length; i += LOAD_BATCH) {
      const part = ids.slice(i, i + LOAD_BATCH);
      const before = new Map(part.map((id) => [id, this.states.get(id)] as const));
      const versions = new Map(part.map((id) => [id, before.get(id)?.pendingOps === 0 ? before.get(id)?.version : undefined]));
      try {
        const [rows, latest] = await Promise.all([this.o.repo.devicesForRules(part), this.o.repo.latestAlarms(part)]);
        const now = this.now();
        const byDevice = groupLatest(latest);
        const found = new Set<number>();
        for (const r of rows) {
          found.add(r.id);
          const s = this.states.get(r.id);
          if (!s || s !== before.get(r.id)) continue;
          this.applySettings(s, ruleDevice(r));
          const v = versions.get(r.id);
          if (v !== undefined && s.version === v && s.pendingOps === 0) applyLatest(s, byDevice.get(r.id) ?? []);
          s.refreshAt = now + refreshDelay();
        }
        for (const id of part) if (!found.has(id)) this.onDeleted({ deviceId: id });
      } catch (err) {
        this.o.log.warn({ err }, 'notification rules could not refresh devices');
        for (const id of part) {
          const s = this.states.get(id);
          if (s) s.refreshAt = this.now() + refreshDelay();
        }
      }
    }
  }

  private applySettings(s: DeviceState, next: RuleDevice): void {
    const prev = s.device;
    const t0 = prev.settings.totalConsumptionThreshold;
    const t1 = next.settings.totalConsumptionThreshold;
    // Energy counted for another period definition (or none) starts again from the stored readings.
    if (
      t1 === null ||
      (t0 === null && t1 !== null) ||
      prev.billingStartDate !== next.billingStartDate ||
      prev.billingPeriodMonths !== next.billingPeriodMonths ||
      prev.direction !== next.direction ||
      prev.timezone !== next.timezone
    )
      s.meter = null;
    s.device = next;
  }

  // ---------------------------------------------------------------- judging readings

  private evaluate(s: DeviceState, batch: ReadingsCommitted): void {
    const d = s.device;
    const flapMs = d.settings.notificationIntervalMinutes * 60_000;
    const phases = PHASE_COLUMNS.map((p) => ({ ave: batch.column(p.ave), min: batch.column(p.min), max: batch.column(p.max) }));
    const anyVoltage = phases.some((p) => p.ave || p.min || p.max);
    const rssi = batch.column('rssi');
    const threshold = d.settings.totalConsumptionThreshold;
    let counters: { names: string[]; cols: ArrayLike<number>[]; values: number[] } | null = null;
    if (threshold !== null) {
      const [total, ...phaseCounters] = energySources(d.direction);
      const names = batch.column(total as string) ? [total as string] : phaseCounters;
      const present = names.filter((n) => batch.column(n));
      if (present.length > 0) {
        counters = {
          names: present,
          cols: present.map((n) => batch.column(n) as ArrayLike<number>),
          values: present.map(() => Number.NaN),
        };
        if (!s.meter) this.startMeter(s);
      }
    }
    const v: VoltageExtremes = { low: Number.NaN, lowPhase: 0, high: Number.NaN, highPhase: 0 };
    const horizon = this.now() - RULES_HORIZON_MS;
    // Almost every reading is well within every limit while no alarm is open: then nothing can move and
    // nothing is built (the full judgement below allocates its observations). A reading near a limit
    // (within a millivolt) takes the full judgement, so rounding never decides.
    const safe = quietBand(d.voltage);
    const { kinds } = s;
    let raises: Raise[] = [];
    for (let i = 0; i < batch.count; i++) {
      const ts = batch.ts[i] as number;
      // Rules move forward: a reading older than one judged already (late, repeated), or than the horizon, is stored, not judged.
      if (!(ts > s.lastTs) || ts < horizon) continue;
      s.lastTs = ts;
      if (anyVoltage) {
        extremes(phases, i, v);
        const quiet =
          !(v.low < safe.low) &&
          !(v.high > safe.high) &&
          !kinds.voltage_drop.open &&
          !kinds.voltage_rise.open &&
          !kinds.limit_warning.open &&
          !kinds.limit_critical.open;
        if (!quiet) {
          const obs = voltageObservations(v, d.voltage);
          for (const kind of ['limit_critical', 'limit_warning', 'voltage_drop', 'voltage_rise'] as const) {
            const o = obs[kind];
            if (o) this.judge(s, kind, o, ts, flapMs, raises);
          }
        }
      }
      if (rssi) {
        const r = rssi[i] as number;
        if (!Number.isNaN(r) && (r <= WEAK_SIGNAL_DBM || kinds.weak_signal.open))
          this.judge(s, 'weak_signal', signalObservation(r), ts, flapMs, raises);
      }
      if (counters && s.meter && threshold !== null) {
        for (let k = 0; k < counters.cols.length; k++) counters.values[k] = (counters.cols[k] as ArrayLike<number>)[i] as number;
        const before = s.meter.period;
        const { rolled } = s.meter.add(ts, counters.names, counters.values, (t) =>
          billingPeriod(t, d.timezone, d.billingStartDate, d.billingPeriodMonths),
        );
        // A new billing period ends the last one's alarm at its end; the new one starts from nothing.
        if (rolled && kinds.consumption.open) this.clear(s, 'consumption', before.end);
        const active = s.meter.energy > threshold;
        if (active || kinds.consumption.open)
          this.judge(s, 'consumption', { active, value: round3(s.meter.energy), phase: null, threshold }, ts, 0, raises);
      }
      if (raises.length > 0) {
        this.raise(s, raises);
        raises = [];
      }
    }
  }

  /** Moves a condition's alarm by one reading's observation. */
  private judge(s: DeviceState, kind: ReadingKind, obs: Observation, ts: number, flapMs: number, raises: Raise[]): void {
    const ks = s.kinds[kind];
    const worse = WORSE[kind];
    switch (nextMove(ks, obs.active, obs.value, ts, flapMs, worse)) {
      case 'none':
        return;
      case 'raise':
        ks.open = true;
        ks.exists = true;
        ks.alarm = { id: null };
        ks.endedAt = null;
        ks.worst = obs.value;
        ks.phase = obs.phase;
        ks.worstWrittenAt = this.now();
        s.version++;
        raises.push({ kind, ks, alarm: ks.alarm, obs, startedAt: ts });
        return;
      case 'reopen': {
        ks.open = true;
        ks.endedAt = null;
        if (isWorse(worse, obs.value, ks.worst)) {
          ks.worst = obs.value;
          ks.phase = obs.phase;
        }
        s.version++;
        const { worst, phase, alarm } = ks;
        this.enqueue(s, async () => {
          if (alarm?.id == null) return;
          if (!(await this.o.store.reopenAlarm(alarm.id, worst, phase, worse))) {
            // Opened again elsewhere (another instance): follow the open one.
            const open = await this.o.store.openAlarm(s.device.id, kind);
            if (open) alarm.id = open.id;
          }
        });
        return;
      }
      case 'worse':
        ks.worst = obs.value;
        ks.phase = obs.phase;
        this.worsen(s, kind);
        return;
      case 'clear':
        this.clear(s, kind, ts);
        return;
    }
  }

  private clear(s: DeviceState, kind: ReadingKind, at: number): void {
    const ks = s.kinds[kind];
    ks.open = false;
    ks.endedAt = at;
    s.version++;
    if (ks.worstTimer) {
      clearTimeout(ks.worstTimer);
      ks.worstTimer = null;
    }
    const { worst, phase, alarm } = ks;
    this.enqueue(s, async () => {
      if (alarm?.id != null) await this.o.store.clearAlarm(alarm.id, at, worst, phase, WORSE[kind]);
    });
  }

  /** Stores a worse value (energy at most every CONSUMPTION_WRITE_MS; a clear stores the last one anyway). */
  private worsen(s: DeviceState, kind: ReadingKind): void {
    const ks = s.kinds[kind];
    if (ks.worstTimer) return;
    const write = () => {
      ks.worstTimer = null;
      ks.worstWrittenAt = this.now();
      const { worst, phase, alarm } = ks;
      this.enqueue(s, async () => {
        if (alarm?.id != null && worst !== null) await this.o.store.worsen(alarm.id, worst, phase, WORSE[kind]);
      });
    };
    const wait = kind === 'consumption' ? ks.worstWrittenAt + CONSUMPTION_WRITE_MS - this.now() : 0;
    if (wait <= 0) {
      write();
      return;
    }
    ks.worstTimer = setTimeout(write, wait);
    ks.worstTimer.unref();
  }

  /** New alarms of one reading: stored, then delivered together (one push, one mail). */
  private raise(s: DeviceState, raises: Raise[]): void {
    this.enqueue(s, async () => {
      const d = s.device;
      const now = this.now();
      const inserted: NotificationRow[] = [];
      for (const r of raises) {
        const held = holdOf({
          muteAll: d.settings.muteAll,
          disableAtNight: d.settings.disableAtNight,
          timezone: d.timezone,
          intervalMs: d.settings.notificationIntervalMinutes * 60_000,
          startedAt: r.startedAt,
          lastSentAt: r.ks.sentAt,
          now,
        });
        const row = await this.o.store.insertAlarm({
          user_id: d.userId,
          device_id: d.id,
          kind: r.kind,
          level: NOTIFICATION_KIND_LEVEL[r.kind],
          started_at: r.startedAt,
          ended_at: null,
          worst_value: r.obs.value,
          worst_phase: r.obs.phase,
          threshold: r.obs.threshold,
          held,
          created_at: now,
        });
        if (row) {
          r.alarm.id = row.id;
          if (held === null) r.ks.sentAt = now;
          this.o.metrics.alarmRaised(r.kind, held);
          inserted.push(row);
        } else {
          // Another instance raised it first: follow its alarm; it delivers.
          const open = await this.o.store.openAlarm(d.id, r.kind);
          r.alarm.id = open?.id ?? null;
        }
      }
      await this.o.dispatcher.deliver(d, inserted, now);
    });
  }

  // ---------------------------------------------------------------- status

  private async offline(s: DeviceState, at: number): Promise<void> {
    const d = s.device;
    const flapMs = d.settings.notificationIntervalMinutes * 60_000;
    const recent = await this.o.store.recentlyEnded(d.id, 'offline', at - flapMs);
    if (recent && (await this.o.store.reopenAlarm(recent.id, null, null, 'high'))) return;
    await this.event(s, 'offline', at, null);
  }

  private async online(s: DeviceState, at: number): Promise<void> {
    const d = s.device;
    const open = await this.o.store.openAlarm(d.id, 'offline');
    // Back online is news only after an offline alarm, and only for the instance that ended it.
    if (!open || !(await this.o.store.clearAlarm(open.id, at, null, null, 'high'))) return;
    const recent = await this.o.store.recentlyEnded(d.id, 'online', at - d.settings.notificationIntervalMinutes * 60_000);
    if (recent) {
      await this.o.store.repeatEvent(recent.id, at);
      return;
    }
    await this.event(s, 'online', at, at);
  }

  private async event(s: DeviceState, kind: NotificationKind, at: number, endedAt: number | null): Promise<void> {
    const d = s.device;
    const now = this.now();
    const held = holdOf({
      muteAll: d.settings.muteAll,
      disableAtNight: d.settings.disableAtNight,
      timezone: d.timezone,
      intervalMs: d.settings.notificationIntervalMinutes * 60_000,
      startedAt: at,
      lastSentAt: await this.o.store.lastSent(d.id, kind),
      now,
    });
    const row = await this.o.store.insertAlarm({
      user_id: d.userId,
      device_id: d.id,
      kind,
      level: NOTIFICATION_KIND_LEVEL[kind],
      started_at: at,
      ended_at: endedAt,
      worst_value: null,
      worst_phase: null,
      threshold: null,
      held,
      created_at: now,
    });
    if (!row) return;
    this.o.metrics.alarmRaised(kind, held);
    await this.o.dispatcher.deliver(d, [row], now);
  }

  // ---------------------------------------------------------------- plumbing

  /** Runs a device's storage work after its earlier work (alarm changes stay in order). */
  private enqueue(s: DeviceState, op: () => Promise<void>): void {
    s.pendingOps++;
    s.chain = s.chain
      .then(op)
      .catch((err: unknown) => {
        this.o.log.warn({ err, deviceId: s.device.id }, 'notification rules could not store an alarm change; reading the device again');
        this.o.metrics.ruleError();
        // What this instance believes may now differ from storage: read it again at the next reading.
        if (this.states.get(s.device.id) === s) this.states.delete(s.device.id);
      })
      .finally(() => {
        s.pendingOps--;
      });
  }

  /**
   * Starts counting the billing period's energy from what is stored (once; the readings then add to it).
   * One device at a time: a server starting under a fleet with consumption thresholds reads each device's
   * period once, not all of them at the same moment.
   */
  private startMeter(s: DeviceState): void {
    if (s.meterLoading) return;
    s.meterLoading = true;
    const d = s.device;
    const read = this.meterReads.then(async () => {
      const now = this.now();
      return { now, ...(await this.o.periodEnergy(d, now)) };
    });
    this.meterReads = read.then(
      () => {},
      () => {},
    );
    read
      .then(({ now, energyKwh, latest }) => {
        if (this.states.get(d.id) !== s || s.device.settings.totalConsumptionThreshold === null) return;
        const meter = new ConsumptionMeter(
          billingPeriod(now, d.timezone, d.billingStartDate, d.billingPeriodMonths),
          energyKwh,
          this.o.counterRules,
        );
        if (latest) meter.seed(latest.ts, latest.values, energySources(d.direction));
        s.meter = meter;
      })
      .catch((err: unknown) => this.o.log.warn({ err, deviceId: d.id }, 'billing-period energy unavailable; consumption rule waits'))
      .finally(() => {
        s.meterLoading = false;
      });
  }
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The voltages between which no voltage rule can hold (drop and rise thresholds, and the warning level
 * either way when the device has limit values), a millivolt inside so a reading at a limit is judged fully.
 */
function quietBand(s: VoltageSettings): { low: number; high: number } {
  const pad = 0.001;
  let low = NOMINAL_VOLTAGE * (1 - s.dropPercent / 100);
  let high = NOMINAL_VOLTAGE * (1 + s.risePercent / 100);
  if (s.limits) {
    low = Math.max(low, NOMINAL_VOLTAGE * (1 - s.warningPercent / 100));
    high = Math.min(high, NOMINAL_VOLTAGE * (1 + s.warningPercent / 100));
  }
  return { low: low + pad, high: high - pad };
}

/** The counters a device's energy figures come from: the 3-phase total, else each phase's (as the energy answers choose). */
export function energySources(direction: 'import' | 'export'): string[] {
  return [`energy3phases_${direction}`, ...[1, 2, 3].map((p) => `${direction === 'import' ? 'eai' : 'eae'}${p}`)];
}

/** Lowest and highest phase voltage of reading i (averages and minima for the low, averages and maxima for the high). */
function extremes(
  phases: { ave: ArrayLike<number> | undefined; min: ArrayLike<number> | undefined; max: ArrayLike<number> | undefined }[],
  i: number,
  out: VoltageExtremes,
): void {
  let low = Number.POSITIVE_INFINITY;
  let lowPhase = 0;
  let high = Number.NEGATIVE_INFINITY;
  let highPhase = 0;
  for (let p = 0; p < 3; p++) {
    const ph = phases[p] as (typeof phases)[number];
    const a = ph.ave ? (ph.ave[i] as number) : Number.NaN;
    const lo = ph.min ? (ph.min[i] as number) : Number.NaN;
    const hi = ph.max ? (ph.max[i] as number) : Number.NaN;
    if (a < low) [low, lowPhase] = [a, p + 1];
    if (lo < low) [low, lowPhase] = [lo, p + 1];
    if (a > high) [high, highPhase] = [a, p + 1];
    if (hi > high) [high, highPhase] = [hi, p + 1];
  }
  out.low = lowPhase ? low : Number.NaN;
  out.lowPhase = lowPhase;
  out.high = highPhase ? high : Number.NaN;
  out.highPhase = highPhase;
}

function groupLatest(latest: readonly LatestAlarm[]): Map<number, LatestAlarm[]> {
  const out = new Map<number, LatestAlarm[]>();
  for (const l of latest) {
    const list = out.get(l.row.device_id);
    if (list) list.push(l);
    else out.set(l.row.device_id, [l]);
  }
  return out;
}

/** A device's kinds as storage has them (the latest alarm of each). */
function applyLatest(s: DeviceState, latest: readonly LatestAlarm[]): void {
  for (const { row, sentAt } of latest) {
    if (!(READING_KINDS as readonly string[]).includes(row.kind)) continue;
    const ks = s.kinds[row.kind as ReadingKind];
    ks.open = row.ended_at === null;
    ks.alarm = { id: row.id };
    ks.endedAt = row.ended_at;
    ks.exists = true;
    ks.worst = row.worst_value;
    ks.phase = row.worst_phase;
    ks.sentAt = sentAt;
  }
}
