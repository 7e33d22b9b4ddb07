import { cachedZoneFormatters } from '@phasewatch/shared';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the readings writer reports, at one narrow point: how long each commit took and how many
 * readings it held. The queue depth is read from the writer when metrics are scraped (`watch`).
 */
export interface WriterMetrics {
  commitObserved(seconds: number, readings: number): void;
}

/** How readings arrived: sent by devices (HTTP, MQTT) or read from them by a collector. */
export type IngestSource = 'http' | 'mqtt' | 'collector';

/** What ingest (HTTP and MQTT) reports after a batch is committed. */
export interface IngestMetrics {
  ingested(source: IngestSource, readings: number): void;
}

/** Reports to nobody: the default of the parts that take metrics (tests, tools). */
export const NO_METRICS: WriterMetrics & IngestMetrics = {
  commitObserved() {},
  ingested() {},
};

/** Values read at scrape time from the parts that hold them. */
export interface MetricSources {
  writerQueueReadings?: () => number;
  hub?: () => { connections: number; messagesIn: number; messagesOut: number };
  /** Depth of each background job queue by name (exports, notifications): none today. */
  jobQueues?: () => Record<string, number>;
}

/**
 * The server's Prometheus metrics, one registry per app (tests build several apps in one process):
 * requests by route and status, ingest readings and batches, writer queue depth and commit time, hub
 * connections and messages, job queue depth, rate-limit refusals, cache sizes, and Node's defaults
 * (event-loop lag, heap, GC, CPU).
 */
export class AppMetrics implements WriterMetrics, IngestMetrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};

  private readonly requests = new Counter({
    name: 'phasewatch_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'phasewatch_http_request_duration_seconds',
    help: 'Time from request to answer, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly ingestReadings = new Counter({
    name: 'phasewatch_ingest_readings_total',
    help: 'Readings committed from devices, by source',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  private readonly ingestBatches = new Counter({
    name: 'phasewatch_ingest_batches_total',
    help: 'Ingest requests and MQTT messages committed, by source',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  private readonly commitSeconds = new Histogram({
    name: 'phasewatch_writer_commit_seconds',
    help: 'Time of one readings write transaction (raw rows and rollups)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly commitReadings = new Counter({
    name: 'phasewatch_writer_committed_readings_total',
    help: 'Readings written by the readings writer',
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'phasewatch_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit, by limit',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const sources = () => this.sources;
    new Gauge({
      name: 'phasewatch_writer_queue_readings',
      help: 'Readings waiting for the readings writer',
      registers: [this.registry],
      collect() {
        this.set(sources().writerQueueReadings?.() ?? 0);
      },
    });
    new Gauge({
      name: 'phasewatch_hub_connections',
      help: 'Open realtime hub connections on this instance',
      registers: [this.registry],
      collect() {
        this.set(sources().hub?.().connections ?? 0);
      },
    });
    new Gauge({
      name: 'phasewatch_hub_messages',
      help: 'Hub messages since start, by direction (in: from clients, out: to clients); a counter read from the hub',
      labelNames: ['direction'] as const,
      registers: [this.registry],
      collect() {
        const hub = sources().hub?.();
        this.set({ direction: 'in' }, hub?.messagesIn ?? 0);
        this.set({ direction: 'out' }, hub?.messagesOut ?? 0);
      },
    });
    new Gauge({
      name: 'phasewatch_job_queue_depth',
      help: 'Jobs waiting in each background queue',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [queue, depth] of Object.entries(sources().jobQueues?.() ?? {})) this.set({ queue }, depth);
      },
    });
    new Gauge({
      name: 'phasewatch_cache_entries',
      help: 'Entries of bounded caches keyed by client input',
      labelNames: ['cache'] as const,
      registers: [this.registry],
      collect() {
        this.set({ cache: 'zone_formatters' }, cachedZoneFormatters());
      },
    });
  }

  /** Adds the parts whose values are read at scrape time. */
  watch(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.requestSeconds.observe({ method, route }, seconds);
  }

  ingested(source: IngestSource, readings: number): void {
    this.ingestReadings.inc({ source }, readings);
    this.ingestBatches.inc({ source });
  }

  commitObserved(seconds: number, readings: number): void {
    this.commitSeconds.observe(seconds);
    this.commitReadings.inc(readings);
  }

  refused(limit: string): void {
    this.rateLimited.inc({ limit });
  }

  /** The Prometheus text exposition of everything above. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
