import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelSnapshot } from './models/device-model.js';
import type { SimulatedKind } from './models/index.js';

/** What the simulator remembers about one of its devices between starts. */
export interface DeviceState {
  slot: string;
  kind: SimulatedKind;
  seed: number;
  id: number | string;
  name: string;
  mac: string;
  /** Shown once at registration; without it the device cannot send again. */
  ingestKey: string;
  /**
   * Where the model stopped: its last reading time and counters. Null before the first reading. With live
   * readings on, this is the live model's state, which runs ahead of any history still being sent.
   */
  snapshot: ModelSnapshot | null;
  /** History not yet sent (oldest first), each with the model state it continues from. */
  pending?: PendingHistory[];
}

/** A stretch of 1-minute history still to send: the model state before it (null: a new meter) and its bounds. */
export interface PendingHistory {
  from: ModelSnapshot | null;
  fromTs: number;
  toTs: number;
}

export interface SimulatorState {
  version: 1;
  baseUrl: string;
  email: string;
  devices: DeviceState[];
}

/** Reads the state file; a missing or unreadable one means a first start. */
export function loadState(file: string): SimulatorState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const s = JSON.parse(text) as SimulatorState;
    return s.version === 1 && Array.isArray(s.devices) ? s : null;
  } catch {
    return null;
  }
}

/**
 * Writes the state file atomically (temporary file + rename, so a crash never leaves half a file) and
 * readable by its owner only: it holds the devices' ingest keys.
 */
export function saveState(file: string, state: SimulatorState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
