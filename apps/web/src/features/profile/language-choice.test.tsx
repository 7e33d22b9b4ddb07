import type { User } from '@phasewatch/shared';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { authStore } from '@/lib/auth-store';
import { chooseLanguage, signedIn, useProfileLanguage } from './language-choice';

const user = (language: User['language']): User => ({
  id: 7,
  email: 'a@b.co',
  fullName: 'Ada',
  country: 'PL',
  timezone: 'Europe/Warsaw',
  language,
  createdAt: '2026-01-01 00:00:00',
});

let updates: Record<string, unknown>[] = [];
beforeEach(async () => {
  updates = [];
  authStore.purge();
  await setLanguage('en');
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/account/update') {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      updates.push(body);
      return new Response(JSON.stringify({ ...user('en'), ...body }), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  authStore.purge();
});

describe('the profile language is the user choice', () => {
  it('the header picker of a signed-in user switches the interface and saves the profile', async () => {
    authStore.setAuth('t', user('en'));
    await chooseLanguage('pl');
    expect(i18n.language).toBe('pl');
    expect(updates).toEqual([{ fullName: 'Ada', country: 'PL', timezone: 'Europe/Warsaw', language: 'pl' }]);
    expect(authStore.get().user?.language).toBe('pl');
  });

  it('a language picked on the sign-in screen becomes the profile language at sign-in', async () => {
    await chooseLanguage('tr');
    expect(updates).toEqual([]);
    signedIn({ token: 't', user: user('en') });
    expect(authStore.get().user?.language).toBe('tr');
    await waitFor(() => expect(updates).toEqual([expect.objectContaining({ language: 'tr' })]));
    expect(i18n.language).toBe('tr');
  });

  it('without a pick, signing in shows the profile language', async () => {
    signedIn({ token: 't', user: user('pl') });
    renderHook(() => useProfileLanguage());
    await waitFor(() => expect(i18n.language).toBe('pl'));
    expect(updates).toEqual([]);
    // A later sign-in of someone else, without a pick, shows theirs.
    authStore.purge();
    signedIn({ token: 't2', user: { ...user('tr'), id: 8 } });
    await waitFor(() => expect(i18n.language).toBe('tr'));
  });
});
