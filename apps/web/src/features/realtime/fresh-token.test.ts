import { describe, expect, it, vi } from 'vitest';
import { freshTokenSource } from './fresh-token';

const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (expSeconds: number) => `${b64url({ alg: 'HS256' })}.${b64url({ sub: '1', exp: expSeconds })}.sig`;

const NOW = 1_800_000_000_000;

describe('freshTokenSource', () => {
  it('hands over a valid stored token without refreshing', async () => {
    const refresh = vi.fn(async () => 'new');
    const token = jwt(NOW / 1000 + 600);
    const get = freshTokenSource({ getToken: () => token, refresh, now: () => NOW });
    await expect(get()).resolves.toBe(token);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('refreshes an expired token, or one about to expire, before handing it over', async () => {
    const refresh = vi.fn(async () => 'refreshed');
    for (const exp of [NOW / 1000 - 1, NOW / 1000 + 10]) {
      const get = freshTokenSource({ getToken: () => jwt(exp), refresh, now: () => NOW });
      await expect(get()).resolves.toBe('refreshed');
    }
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('takes a token stored meanwhile when its own refresh fails, and fails without any', async () => {
    let stored: string | null = jwt(NOW / 1000 - 1);
    const get = freshTokenSource({
      getToken: () => stored,
      refresh: async () => {
        stored = 'other-tab';
        return null;
      },
      now: () => NOW,
    });
    await expect(get()).resolves.toBe('other-tab');

    stored = jwt(NOW / 1000 - 1);
    const failing = freshTokenSource({ getToken: () => stored, refresh: async () => null, now: () => NOW });
    await expect(failing()).rejects.toThrow(/expired/);
    stored = null;
    await expect(failing()).rejects.toThrow(/not signed in/);
  });

  it('passes a token it cannot read through unchanged (the server decides)', async () => {
    const get = freshTokenSource({ getToken: () => 'opaque', refresh: async () => 'x', now: () => NOW });
    await expect(get()).resolves.toBe('opaque');
  });
});
