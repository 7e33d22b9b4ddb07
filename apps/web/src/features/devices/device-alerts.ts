import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';

/** A device's state as far as the toasts of spec section 8 care. */
export interface AlertState {
  id: number;
  name: string;
  offline: boolean;
  weakSignal: boolean;
  /** A device that never sent a reading is not "offline": it has not been connected yet. */
  everSeen: boolean;
}

export type AlertKind = 'offline' | 'weakSignal';

/**
 * Which toasts a device's state calls for, given those already shown: each condition is told once when
 * it begins (not on every refetch or reload), and may be told again after it has cleared. Returns the
 * toasts to show and the new set of shown keys (`<id>:<kind>`).
 */
export function alertsFor(shown: ReadonlySet<string>, d: AlertState): { show: AlertKind[]; next: Set<string> } {
  const next = new Set(shown);
  const show: AlertKind[] = [];
  const conditions: [AlertKind, boolean][] = [
    ['offline', d.offline && d.everSeen],
    ['weakSignal', d.weakSignal],
  ];
  for (const [kind, active] of conditions) {
    const key = `${d.id}:${kind}`;
    if (active && !next.has(key)) {
      next.add(key);
      show.push(kind);
    } else if (!active) next.delete(key);
  }
  return { show, next };
}

/** Session storage: once per browser tab session and user, surviving reloads. */
const STORE_KEY = 'phasewatch.deviceAlerts';

function load(userId: number): Set<string> {
  try {
    const raw = JSON.parse(window.sessionStorage.getItem(STORE_KEY) ?? 'null') as { userId: number; shown: string[] } | null;
    return raw && raw.userId === userId ? new Set(raw.shown) : new Set();
  } catch {
    return new Set();
  }
}

function save(userId: number, shown: Set<string>): void {
  try {
    window.sessionStorage.setItem(STORE_KEY, JSON.stringify({ userId, shown: [...shown] }));
  } catch {
    // private mode: toasts may repeat after a reload, nothing worse
  }
}

/** Shows the toasts a device's state calls for (weak WiFi signal, offline), each once. */
export function announceDeviceState(t: TFunction, userId: number, d: AlertState): void {
  const { show, next } = alertsFor(load(userId), d);
  if (show.length === 0 && next.size === load(userId).size) return;
  save(userId, next);
  for (const kind of show) {
    notifications.show({
      id: `device-${d.id}-${kind}`,
      color: kind === 'offline' ? 'gray' : 'yellow',
      message: t(kind === 'offline' ? 'messages.deviceOffline' : 'messages.weakSignal', { name: d.name }),
    });
  }
}
