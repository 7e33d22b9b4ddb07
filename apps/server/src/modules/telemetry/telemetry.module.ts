import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import { FailureCounter, WindowLimiter } from '../../http/rate-limits.js';
import { BatchWriter } from '../../ingest/batch-writer.js';
import { ingestRoutes } from '../../ingest/ingest.routes.js';
import { IngestService } from '../../ingest/ingest.service.js';
import { MqttSubscriber } from '../../ingest/mqtt.subscriber.js';
import { CollectorsRepository, CollectorsService, collectorsRoutes, InstanceMembership } from '../collectors/index.js';
import { type DeviceReads, DevicesRepository, DevicesService, devicesRoutes, readingsRoutes } from '../devices/index.js';
import { Compactor, pgWriteConcurrency, ReadingsRepository, ReadingsService } from '../readings/index.js';

/** How often devices that fell silent are announced offline. */
const STATUS_SWEEP_MS = 30_000;
/** How often raw rows past retention are dropped. */
const RETENTION_SWEEP_MS = 3_600_000;

/** Devices, ingestion (HTTP and MQTT), readings, rollups and energy: the services other parts use. */
export interface Telemetry {
  devices: DevicesService;
  /** What other modules read of devices (the devices service's own repository). */
  deviceReads: DeviceReads;
  readings: ReadingsService;
  /** The storage of readings (tests and benchmarks look at it directly). */
  readingsRepository: ReadingsRepository;
  ingest: IngestService;
  writer: BatchWriter;
  /** Null when no MQTT_URL is configured. */
  mqtt: MqttSubscriber | null;
  /** Devices Phasewatch reads itself (Fox ENERGY, Shelly, Tasmota). */
  collectors: CollectorsService;
  /** Runs the raw-retention cleanup now (also hourly in the background). */
  applyRetention(now?: number): Promise<void>;
  /** Rolls up every closed hour now (also continuously in the background); tests and benchmarks use it. */
  compactNow(now?: number): Promise<void>;
  /** Finishes the local-day rebuilds asked for (after timezone changes; also step by step in the background). */
  rebuildDaysNow(): Promise<void>;
}

/** Registers the telemetry routes under /api and starts its background parts (closed with the app). */
export async function createTelemetry(app: FastifyInstance, base: BaseContext): Promise<Telemetry> {
  const readingsRepo = new ReadingsRepository(base.storage, {
    writerThread: true,
    pgWriteConcurrency: pgWriteConcurrency(base.config.pgPoolSize),
    rules: { jitterRatio: base.config.energyJitterRatio, gapLimitMs: base.config.energyGapLimitMs },
  });
  const compactor = new Compactor(readingsRepo, app.log);
  const readings = new ReadingsService(readingsRepo, { onStaleDays: (deviceId, tz) => compactor.rebuildDays(deviceId, tz) });
  const devicesRepo = new DevicesRepository(base.storage.db, base.storage.dialect);
  const devices = new DevicesService(devicesRepo, readingsRepo, readings, base.events);
  const writer = new BatchWriter(readingsRepo, app.log, base.metrics, readingsRepo.writeConcurrency(base.config.pgPoolSize));
  base.metrics.watch({ writerQueueReadings: () => writer.queueDepth });
  const keyFailures = base.config.ingestKeyFailures;
  const ingest = new IngestService(devices, writer, base.events, {
    rawRetentionDays: base.config.rawRetentionDays,
    metrics: base.metrics,
    log: app.log,
    keyFailures: keyFailures.max > 0 ? new FailureCounter(keyFailures.max, keyFailures.windowMs) : null,
    onKeyFailuresRefused: () => base.metrics.refused('ingestKeyFailures'),
  });
  const limit = base.config.rateLimits.ingest;
  const mqtt = base.config.mqttUrl
    ? new MqttSubscriber(
        base.config.mqttUrl,
        ingest,
        app.log,
        limit.max > 0 ? new WindowLimiter(limit.max, limit.windowMs) : null,
        () => base.metrics.refused('ingest'),
        base.config.mqttShareGroup,
      )
    : null;

  // Several instances share one PostgreSQL: each collected device is read by one live instance (SQLite: one instance).
  const membership = base.storage.dialect === 'postgres' ? new InstanceMembership(base.storage.db) : null;
  const collectors = new CollectorsService(
    new CollectorsRepository(base.storage.db),
    devices,
    ingest,
    base.config,
    app.log,
    base.events,
    undefined,
    membership,
  );

  await app.register(
    async (api) => {
      await api.register(devicesRoutes, { devices, collectors });
      await api.register(collectorsRoutes, { collectors, devices });
      await api.register(readingsRoutes, { devices });
      await api.register(ingestRoutes, { ingest });
    },
    { prefix: '/api' },
  );

  const applyRetention = async (now = Date.now()) => {
    await readingsRepo.deleteRawBefore(now - base.config.rawRetentionDays * 86_400_000, await devices.allIds());
  };
  const timers: NodeJS.Timeout[] = [];
  const background = (what: string, fn: () => Promise<void>) => () => {
    fn().catch((err) => app.log.warn({ err }, `${what} failed`));
  };
  app.addHook('onReady', async () => {
    if (mqtt) await mqtt.start();
    compactor.start();
    await collectors.start();
    timers.push(
      setInterval(
        background('status sweep', () => devices.announceStatusChanges()),
        STATUS_SWEEP_MS,
      ).unref(),
    );
    timers.push(
      setInterval(
        background('raw retention', () => applyRetention()),
        RETENTION_SWEEP_MS,
      ).unref(),
    );
  });
  // Before storage closes (onClose hooks run in reverse order of registration after this one).
  app.addHook('preClose', async () => {
    for (const t of timers) clearInterval(t);
    await collectors.stop();
    await compactor.stop();
    await mqtt?.stop();
    await writer.flushed();
    ingest.stop();
    await readingsRepo.close();
  });

  return {
    devices,
    deviceReads: devicesRepo,
    readings,
    readingsRepository: readingsRepo,
    ingest,
    writer,
    mqtt,
    collectors,
    applyRetention,
    compactNow: (now) => compactor.runAll(now),
    rebuildDaysNow: () => compactor.runDayRebuilds(),
  };
}
