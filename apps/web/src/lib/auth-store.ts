import { FALLBACK_TIMEZONE, type User } from '@phasewatch/shared';
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { readStorage, writeStorage } from './storage';

export interface AuthState {
  token: string | null;
  user: User | null;
}

type Listener = () => void;
const listeners = new Set<Listener>();

function load(): AuthState {
  const token = readStorage(STORAGE_KEYS.token);
  let user: User | null = null;
  try {
    const raw = readStorage(STORAGE_KEYS.user);
    user = raw ? (JSON.parse(raw) as User) : null;
  } catch {
    user = null;
  }
  return { token, user };
}

let state: AuthState = load();

/**
 * The user's timezone: the server derives it from the country (and the profile may change it), so the
 * country table need not travel to the browser; the spec's fallback covers a record without one.
 */
const zoneOf = (user: User): string => user.timezone || FALLBACK_TIMEZONE;

function emit(): void {
  for (const l of listeners) l();
}

/**
 * Auth of spec section 4: authenticated while a token is stored. Login, register and refresh set it
 * (token, user and the user's timezone); purge clears token and user.
 */
export const authStore = {
  get: (): AuthState => state,
  getToken: (): string | null => state.token,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setAuth(token: string, user: User): void {
    writeStorage(STORAGE_KEYS.token, token);
    writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
    writeStorage(STORAGE_KEYS.timezone, zoneOf(user));
    state = { token, user };
    emit();
  },
  setToken(token: string): void {
    writeStorage(STORAGE_KEYS.token, token);
    state = { ...state, token };
    emit();
  },
  setUser(user: User): void {
    writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
    writeStorage(STORAGE_KEYS.timezone, zoneOf(user));
    state = { ...state, user };
    emit();
  },
  purge(): void {
    writeStorage(STORAGE_KEYS.token, null);
    writeStorage(STORAGE_KEYS.user, null);
    state = { token: null, user: null };
    emit();
  },
  /** Re-reads storage (another tab signed in or out). */
  reload(): void {
    state = load();
    emit();
  },
};

/** The stored timezone of the user, or the spec's fallback. */
export function storedTimezone(): string {
  return readStorage(STORAGE_KEYS.timezone) || FALLBACK_TIMEZONE;
}

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
}
