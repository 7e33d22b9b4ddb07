import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../app.js';

/** Devices, ingestion (HTTP and MQTT), readings, rollups and energy: the services other parts use. */
// biome-ignore lint/complexity/noBannedTypes: filled in by the telemetry module.
export type Telemetry = {};

/** Registers the telemetry routes under /api and starts its background parts (closed with the app). */
export async function createTelemetry(_app: FastifyInstance, _base: BaseContext): Promise<Telemetry> {
  return {};
}
