import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { readStorage, writeStorage } from './storage';

const listeners = new Set<() => void>();
let fox = readStorage(STORAGE_KEYS.foxAppMode) === 'true';

/** The embedded mode for the mobile app (spec sections 1 and 4): persisted across reloads. */
export const foxMode = {
  get: () => fox,
  set(on: boolean) {
    if (on === fox) return;
    fox = on;
    writeStorage(STORAGE_KEYS.foxAppMode, on ? 'true' : null);
    for (const l of listeners) l();
  },
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

export function useFoxMode(): boolean {
  return useSyncExternalStore(foxMode.subscribe, foxMode.get, foxMode.get);
}
