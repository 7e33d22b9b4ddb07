import type { User } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import type { AuthState } from './auth-store';
import { clearOnUserChange, createQueryClient } from './query-client';

function fakeStore(initial: AuthState) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    set(next: AuthState) {
      state = next;
      for (const l of listeners) l();
    },
  };
}

const user = (id: number) =>
  ({ id, email: `u${id}@example.com`, fullName: '', country: 'PL', timezone: 'Europe/Warsaw', language: 'en', createdAt: '' }) as User;

describe('clearOnUserChange', () => {
  it('keeps the cache across a token refresh of the same user, drops it on purge and on another user', () => {
    const client = createQueryClient();
    const store = fakeStore({ token: 't1', user: user(1) });
    clearOnUserChange(client, store);
    client.setQueryData(['devices'], ['A1']);

    store.set({ token: 't2', user: user(1) });
    expect(client.getQueryData(['devices'])).toEqual(['A1']);

    store.set({ token: null, user: null });
    expect(client.getQueryData(['devices'])).toBeUndefined();

    store.set({ token: 't3', user: user(1) });
    client.setQueryData(['devices'], ['A1']);
    store.set({ token: 't4', user: user(2) });
    expect(client.getQueryData(['devices'])).toBeUndefined();
  });
});
