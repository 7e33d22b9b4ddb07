import path from 'node:path';
import type { BackfillSummary } from './backfill.js';
import { placeDemoFleet } from './demo-place.js';
import { type FleetDeviceSpec, type FleetEvent, type FleetHandle, startFleet } from './fleet.js';
import { seedFromString } from './random.js';

/** The demo account's fleet: one device of each type, plus a workshop on the second three-phase code. */
export const DEMO_FLEET: readonly FleetDeviceSpec[] = [
  // The Home's grid meter sits behind the rooftop solar: it exports when the PV out-produces the house (issue 33).
  {
    slot: 'home-meter',
    kind: 'household',
    name: 'Home – main meter',
    seed: seedFromString('demo:home-meter'),
    rooftopSolarSeed: seedFromString('demo:solar'),
  },
  { slot: 'solar', kind: 'solar', name: 'Rooftop solar', seed: seedFromString('demo:solar') },
  { slot: 'thermostat', kind: 'thermostat', name: 'Living room thermostat', seed: seedFromString('demo:thermostat') },
  { slot: 'flat-meter', kind: 'single-phase', name: 'Flat – single-phase meter', seed: seedFromString('demo:flat-meter') },
  { slot: 'workshop-meter', kind: 'workshop', name: 'Workshop', seed: seedFromString('demo:workshop-meter') },
];

/** The state file of the embedded fleet inside the server's data dir. */
export const EMBEDDED_STATE_FILE = 'simulator-state.json';

export interface EmbeddedFleetOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The demo account (it must exist). */
  email: string;
  password: string;
  /** The server's data dir; the fleet keeps `simulator-state.json` (devices, ingest keys, progress) there. */
  dataDir: string;
  /** Days of 1-minute history on first start (365 by default). */
  historyDays?: number;
  /** Live reading interval (5 s by default; 0 for none). */
  liveIntervalMs?: number;
  /** Start-up progress and errors, e.g. `terminalProgress(process.stdout)`. */
  onProgress?(event: FleetEvent): void;
  signal?: AbortSignal;
}

export interface EmbeddedFleet {
  /** Resolves when history is complete (first start: a year; later starts: the time the server was down). */
  backfillDone: Promise<BackfillSummary>;
  stop(): Promise<void>;
}

/**
 * Gives the demo account its simulated fleet. First start: registers the five devices and sends a year of
 * 1-minute history; later starts find the devices again through the state file in `dataDir` and only fill
 * the time since the last reading sent. Then live readings every ~5 s until `stop()` or `signal`.
 * Call it after the server listens; it talks to the server over HTTP like any device would.
 */
export function startEmbeddedFleet(options: EmbeddedFleetOptions): EmbeddedFleet {
  const fleet: FleetHandle = startFleet({
    baseUrl: options.baseUrl,
    email: options.email,
    password: options.password,
    stateFile: path.join(options.dataDir, EMBEDDED_STATE_FILE),
    devices: DEMO_FLEET,
    historyDays: options.historyDays ?? 365,
    liveIntervalMs: options.liveIntervalMs ?? 5_000,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // Its locations and tariffs, once the devices exist (an account that has locations keeps its own).
  // (A failed set-up is reported by the fleet itself.)
  fleet.ready.then(
    (devices) =>
      placeDemoFleet({
        baseUrl: options.baseUrl,
        email: options.email,
        password: options.password,
        devices,
        historyDays: options.historyDays ?? 365,
      }).catch((error: unknown) => options.onProgress?.({ type: 'error', during: 'setup', error })),
    () => {},
  );
  return { backfillDone: fleet.backfillDone, stop: () => fleet.stop() };
}
