import { jwtExpiresAt } from '@/lib/jwt';

export interface FreshTokenOptions {
  /** The stored access token (the auth store's). */
  getToken(): string | null;
  /** The API client's refresh: one at a time, stores the new auth; null when it failed. */
  refresh(): Promise<string | null>;
  now?: () => number;
  /** Refresh this long before the expiry, so the negotiate does not race it (ms). */
  marginMs?: number;
}

/**
 * The token handed to the hub for each negotiate (start and every reconnect): the stored one while it
 * is valid, otherwise a refreshed one. Throws when there is none, so the start fails instead of
 * negotiating with a token the server will refuse.
 */
export function freshTokenSource({ getToken, refresh, now = Date.now, marginMs = 30_000 }: FreshTokenOptions): () => Promise<string> {
  return async () => {
    const token = getToken();
    if (!token) throw new Error('not signed in');
    const exp = jwtExpiresAt(token);
    if (exp === null || exp - marginMs > now()) return token;
    const refreshed = await refresh();
    if (refreshed) return refreshed;
    // Another request may have refreshed meanwhile.
    const current = getToken();
    if (current && current !== token) return current;
    throw new Error('access token expired and could not be refreshed');
  };
}
