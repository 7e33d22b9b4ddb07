import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../app.js';
import type { Telemetry } from '../modules/telemetry.js';

// biome-ignore lint/complexity/noBannedTypes: filled in by the realtime hub.
export type Realtime = {};

/** Mounts the SignalR-protocol hub at /hubs/dashboardHub (closed with the app). */
export async function createRealtime(_app: FastifyInstance, _base: BaseContext, _telemetry: Telemetry): Promise<Realtime> {
  return {};
}
