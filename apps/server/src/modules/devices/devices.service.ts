import {
  type CreateDeviceRequest,
  type CreateDeviceResponse,
  DEFAULT_LIMITS,
  DEFAULT_NOTIFICATION_SETTINGS,
  type Device,
  type DeviceListItem,
  type DeviceRole,
  type DeviceStatus,
  deviceStatus,
  deviceTypeName,
  type EnergyResponse,
  effectiveRoles,
  energyDirection,
  FALLBACK_TIMEZONE,
  isWeakSignal,
  type Limits,
  localDate,
  type NotificationSettings,
  notificationSettingsSchema,
  type UpdateDeviceRequest,
  validationMessage,
} from '@phasewatch/shared';
import type { Updateable } from 'kysely';
import { randomToken, sha256 } from '../../auth/tokens.js';
import type { EventBus } from '../../events/bus.js';
import { serverDate } from '../../http/dates.js';
import { ApiError, keyedError } from '../../http/errors.js';
import type { DeviceRow, DevicesTable } from '../../storage/schema.js';
import type { DevicePlacement } from '../locations/index.js';
import type { LatestRawReading, ReadingsColumns, ReadingsQueryInput, ReadingsRepository, ReadingsService } from '../readings/index.js';
import type { DevicesRepository, IngestIdentity } from './devices.repository.js';

const macConflict = () => keyedError(409, 'errors.macTaken', { field: 'mac' });
const deviceNotFound = () => keyedError(404, 'errors.deviceNotFound');
/** How many devices' total energies `list` reads at once. */
const LIST_TOTALS_AT_ONCE = 4;

/** A device's notification settings as stored (defaults for what is missing or unreadable). */
export function notificationsOf(row: Pick<DeviceRow, 'notifications'>): NotificationSettings {
  try {
    // Settings stored before a field existed (emailEnabled) take its default.
    return notificationSettingsSchema.parse({ ...DEFAULT_NOTIFICATION_SETTINGS, ...JSON.parse(row.notifications) });
  } catch {
    return DEFAULT_NOTIFICATION_SETTINGS;
  }
}

/** Devices of a user: registration with a one-time ingest key, settings, status, energy and readings. */
export class DevicesService {
  constructor(
    private readonly repo: DevicesRepository,
    private readonly readingsRepo: ReadingsRepository,
    private readonly readings: ReadingsService,
    private readonly events: EventBus,
    private readonly now: () => number = Date.now,
  ) {}

  /** Locations and tariffs (their module is built after this one); without it devices have no placement. */
  private placement: DevicePlacement | null = null;
  attachPlacement(placement: DevicePlacement): void {
    this.placement = placement;
  }

  private noNames = { locations: new Map<number, string>(), tariffs: new Map<number, string>() };
  private names(userId: number) {
    return this.placement ? this.placement.names(userId) : Promise.resolve(this.noNames);
  }
  private place(userId: number, row: Pick<DeviceRow, 'location_id' | 'default_tariff_id'> | null, req: UpdateDeviceRequest) {
    const current = { locationId: row?.location_id ?? null, tariffId: row?.default_tariff_id ?? null };
    if (!this.placement) return Promise.resolve(current);
    return this.placement.resolve(userId, current, { locationId: req.locationId, tariffId: req.tariffId });
  }

  /** Effective roles of the user's devices (issue 33), per location: the user's choice, else the default. */
  private static roles(rows: readonly DeviceRow[]): Map<number, DeviceRole> {
    const byLocation = new Map<number | string, { id: number; typeCode: number; role: string | null }[]>();
    for (const r of rows) {
      const key = r.location_id ?? `device-${r.id}`;
      const list = byLocation.get(key) ?? [];
      list.push({ id: r.id, typeCode: r.type_code, role: r.role });
      byLocation.set(key, list);
    }
    const out = new Map<number, DeviceRole>();
    for (const list of byLocation.values()) for (const [id, role] of effectiveRoles(list)) out.set(id, role);
    return out;
  }

  private listItem(
    row: DeviceRow,
    totalEnergyKwh: number,
    latestReading: LatestRawReading | null,
    names: { locations: Map<number, string>; tariffs: Map<number, string> },
    roles: Map<number, DeviceRole> = DevicesService.roles([row]),
  ): DeviceListItem {
    const ref = (id: number | null, m: Map<number, string>) => (id === null || !m.has(id) ? null : { id, name: m.get(id) as string });
    return {
      id: row.id,
      name: row.name,
      friendlyName: row.friendly_name,
      mac: row.mac,
      model: row.model,
      typeCode: row.type_code,
      typeName: row.type_name,
      status: deviceStatus(row.last_seen, row.reporting_interval_s, this.now()),
      weakSignal: isWeakSignal(row.last_rssi),
      lastSeen: row.last_seen === null ? null : serverDate(row.last_seen),
      location: ref(row.location_id, names.locations),
      tariff: ref(row.default_tariff_id, names.tariffs),
      role: roles.get(row.id) ?? 'submeter',
      roleSet: row.role !== null,
      totalEnergyKwh,
      latestReading,
    };
  }

  private async toDevice(row: DeviceRow): Promise<Device> {
    const measured = await this.readings.totalEnergy(row.id, energyDirection(row.type_code));
    const latest = (await this.repo.latestReadings(row.user_id, row.id)).get(row.id) ?? null;
    return {
      ...this.listItem(
        row,
        Math.round((measured + row.meter_value_kwh) * 1e6) / 1e6,
        latest,
        await this.names(row.user_id),
        DevicesService.roles(await this.repo.listForUser(row.user_id)),
      ),
      registeredAt: serverDate(row.registered_at),
      modifiedAt: serverDate(row.modified_at),
      billingStartDate: row.billing_start_date,
      billingPeriodMonths: row.billing_period_months,
      reportingIntervalSeconds: row.reporting_interval_s,
      rssi: row.last_rssi,
      limits: { warningLevel: row.limit_warning, criticalLevel: row.limit_critical },
      meterValueKwh: row.meter_value_kwh,
      notifications: notificationsOf(row),
      shareWithHomeAssistant: row.share_ha === 1,
    };
  }

  private async own(userId: number, id: number): Promise<DeviceRow> {
    const row = await this.repo.findForUser(userId, id);
    if (!row) throw deviceNotFound();
    return row;
  }

  /** Whether the device exists and belongs to the user (the hub's subscription check). */
  async owns(userId: number, id: number): Promise<boolean> {
    return (await this.repo.findForUser(userId, id)) !== undefined;
  }

  async create(userId: number, req: CreateDeviceRequest & { mac: string }): Promise<CreateDeviceResponse> {
    const now = this.now();
    const tz = (await this.repo.userTimezone(userId))?.timezone ?? FALLBACK_TIMEZONE;
    const ingestKey = `pwd_${randomToken(24)}`;
    const placed = await this.place(userId, null, req);
    const row = await this.repo.insert({
      user_id: userId,
      name: req.name,
      friendly_name: req.friendlyName ?? '',
      type_code: req.typeCode,
      type_name: req.typeName || deviceTypeName(req.typeCode),
      mac: req.mac,
      model: req.model ?? '',
      ingest_key_hash: sha256(ingestKey),
      registered_at: now,
      modified_at: now,
      billing_start_date: req.billingStartDate ?? localDate(now, tz),
      billing_period_months: req.billingPeriodMonths ?? 1,
      reporting_interval_s: req.reportingIntervalSeconds ?? 60,
      location_id: placed.locationId,
      default_tariff_id: placed.tariffId,
      notifications: JSON.stringify(DEFAULT_NOTIFICATION_SETTINGS),
      limit_warning: DEFAULT_LIMITS.warningLevel,
      limit_critical: DEFAULT_LIMITS.criticalLevel,
      meter_value_kwh: 0,
    });
    if (!row) throw macConflict();
    return { device: await this.toDevice(row), ingestKey };
  }

  /**
   * The user's devices with their latest readings and total energy. The independent reads go out together
   * (on PostgreSQL each is a round trip; one after another, a list of two devices took a dozen of them, and
   * its p99 beside 200 posting meters was 160 ms), the devices' totals a few at a time so one long list does
   * not take every pooled connection.
   */
  async list(userId: number): Promise<DeviceListItem[]> {
    const [rows, latest, names] = await Promise.all([this.repo.listForUser(userId), this.repo.latestReadings(userId), this.names(userId)]);
    const roles = DevicesService.roles(rows);
    const measured = new Array<number>(rows.length);
    for (let i = 0; i < rows.length; i += LIST_TOTALS_AT_ONCE) {
      const part = rows.slice(i, i + LIST_TOTALS_AT_ONCE);
      const totals = await Promise.all(part.map((row) => this.readings.totalEnergy(row.id, energyDirection(row.type_code))));
      totals.forEach((t, k) => {
        measured[i + k] = t;
      });
    }
    return rows.map((row, i) =>
      this.listItem(row, Math.round(((measured[i] ?? 0) + row.meter_value_kwh) * 1e6) / 1e6, latest.get(row.id) ?? null, names, roles),
    );
  }

  async get(userId: number, id: number): Promise<Device> {
    return this.toDevice(await this.own(userId, id));
  }

  private async patch(userId: number, id: number, patch: Updateable<DevicesTable>): Promise<Device> {
    const row = await this.repo.update(userId, id, { ...patch, modified_at: this.now() });
    if (row === 'conflict') throw macConflict();
    if (!row) throw deviceNotFound();
    this.events.emit('deviceSettingsChanged', { deviceId: id, userId });
    return this.toDevice(row);
  }

  async update(userId: number, id: number, req: UpdateDeviceRequest & { mac?: string | undefined }): Promise<Device> {
    const patch: Updateable<DevicesTable> = {};
    if (req.locationId !== undefined || req.tariffId !== undefined) {
      // A bad reference in the body is a 400 whoever's the device is (checked before the device's 404).
      const row = (await this.repo.findForUser(userId, id)) ?? null;
      const placed = await this.place(userId, row, req);
      if (!row) throw deviceNotFound();
      patch.location_id = placed.locationId;
      patch.default_tariff_id = placed.tariffId;
    }
    if (req.name !== undefined) patch.name = req.name;
    if (req.friendlyName !== undefined) patch.friendly_name = req.friendlyName;
    if (req.typeCode !== undefined) {
      patch.type_code = req.typeCode;
      if (req.typeName === undefined) patch.type_name = deviceTypeName(req.typeCode);
    }
    if (req.typeName !== undefined) patch.type_name = req.typeName;
    if (req.mac !== undefined) patch.mac = req.mac;
    if (req.model !== undefined) patch.model = req.model;
    if (req.billingStartDate !== undefined) patch.billing_start_date = req.billingStartDate;
    if (req.billingPeriodMonths !== undefined) patch.billing_period_months = req.billingPeriodMonths;
    if (req.reportingIntervalSeconds !== undefined) patch.reporting_interval_s = req.reportingIntervalSeconds;
    if (req.shareWithHomeAssistant !== undefined) patch.share_ha = req.shareWithHomeAssistant ? 1 : 0;
    if (req.role !== undefined) patch.role = req.role;
    if (req.role === 'grid' || (patch.location_id !== undefined && req.role === undefined)) await this.checkOneGrid(userId, id, patch);
    return this.patch(userId, id, patch);
  }

  /** At most one grid meter per location (issue 33): a second one set by the user is a 400 on `role`. */
  private async checkOneGrid(userId: number, id: number, patch: Updateable<DevicesTable>): Promise<void> {
    const rows = await this.repo.listForUser(userId);
    const self = rows.find((r) => r.id === id);
    if (!self) throw deviceNotFound();
    const role = patch.role !== undefined ? patch.role : self.role;
    const locationId = patch.location_id !== undefined ? patch.location_id : self.location_id;
    if (role !== 'grid' || locationId === null) return;
    if (rows.some((r) => r.id !== id && r.location_id === locationId && r.role === 'grid'))
      throw new ApiError(400, `role: ${validationMessage('prosumer.errors.secondGrid')}`, [
        { field: 'role', message: validationMessage('prosumer.errors.secondGrid'), key: 'prosumer.errors.secondGrid' },
      ]);
  }

  setLimits(userId: number, id: number, limits: Limits): Promise<Device> {
    return this.patch(userId, id, { limit_warning: limits.warningLevel, limit_critical: limits.criticalLevel });
  }

  setMeterValue(userId: number, id: number, meterValueKwh: number): Promise<Device> {
    return this.patch(userId, id, { meter_value_kwh: meterValueKwh });
  }

  setNotifications(userId: number, id: number, settings: NotificationSettings): Promise<Device> {
    return this.patch(userId, id, { notifications: JSON.stringify(settings) });
  }

  /** Irreversible: the device, its readings and its rollups go in one transaction. */
  async remove(userId: number, id: number): Promise<void> {
    await this.own(userId, id);
    await this.readingsRepo.deleteDevice(id);
    this.events.emit('deviceDeleted', { deviceId: id, userId });
  }

  async readingsOf(userId: number, id: number, q: ReadingsQueryInput): Promise<ReadingsColumns> {
    await this.own(userId, id);
    const tz = (await this.repo.userTimezone(userId))?.timezone ?? FALLBACK_TIMEZONE;
    return this.readings.readings(id, tz, q);
  }

  async energyOf(userId: number, id: number): Promise<EnergyResponse> {
    const row = await this.own(userId, id);
    const tz = (await this.repo.userTimezone(userId))?.timezone ?? FALLBACK_TIMEZONE;
    return this.readings.energy(
      id,
      tz,
      {
        direction: energyDirection(row.type_code),
        meterValueKwh: row.meter_value_kwh,
        billingStartDate: row.billing_start_date,
        billingPeriodMonths: row.billing_period_months,
      },
      this.now(),
    );
  }

  /** The device an ingest key belongs to, or undefined for an unknown key. */
  byIngestKey(key: string): Promise<IngestIdentity | undefined> {
    return this.repo.findByKeyHash(sha256(key));
  }

  /** `byIngestKey` for many keys in one query (at most a few hundred), by key; unknown keys left out. */
  async byIngestKeys(keys: readonly string[]): Promise<Map<string, IngestIdentity>> {
    const hashes = new Map(keys.map((k) => [sha256(k), k]));
    const found = await this.repo.findByKeyHashes([...hashes.keys()]);
    const out = new Map<string, IngestIdentity>();
    for (const [hash, identity] of found) out.set(hashes.get(hash) as string, identity);
    return out;
  }

  /**
   * Announces status and weak-signal changes once each: called after commits (a device coming online)
   * and by a periodic sweep (devices falling silent).
   */
  async announceStatusChanges(onlyIds?: readonly number[]): Promise<void> {
    const now = this.now();
    const changed: { id: number; userId: number; status: DeviceStatus; weak: boolean }[] = [];
    for (const d of await this.repo.listStatus(onlyIds)) {
      const status = deviceStatus(d.last_seen, d.reporting_interval_s, now);
      const weak = isWeakSignal(d.last_rssi);
      if (status === d.last_status && (weak ? 1 : 0) === d.last_weak) continue;
      changed.push({ id: d.id, userId: d.user_id, status, weak });
    }
    if (changed.length === 0) return;
    await this.readingsRepo.recordStatuses(changed);
    for (const c of changed)
      this.events.emit('deviceStatusChanged', { deviceId: c.id, userId: c.userId, status: c.status, weakSignal: c.weak });
  }

  /** The user's timezone (collectors read Tasmota's local time in it), or undefined for no such user. */
  async timezoneOf(userId: number): Promise<string | undefined> {
    return (await this.repo.userTimezone(userId))?.timezone;
  }

  /** The newest reading of each of the user's devices (collectors continue counters from it after a restart). */
  latestReadingsOf(userId: number): Promise<Map<number, LatestRawReading>> {
    return this.repo.latestReadings(userId);
  }

  allIds(): Promise<number[]> {
    return this.repo.allIds();
  }
}
