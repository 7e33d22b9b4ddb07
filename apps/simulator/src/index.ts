export { ApiError, PhasewatchClient, type RemoteDevice } from './api-client.js';
export { type BackfillProgress, type BackfillSummary, MAX_BATCH, runBackfill } from './backfill.js';
export { DEMO_FLEET, EMBEDDED_STATE_FILE, type EmbeddedFleet, type EmbeddedFleetOptions, startEmbeddedFleet } from './embedded.js';
export { type FleetDeviceSpec, type FleetEvent, type FleetHandle, type FleetOptions, startFleet } from './fleet.js';
export { createModel, type SimulatedKind } from './models/index.js';
export { HISTORY_READY_PREFIX, terminalProgress } from './progress.js';
