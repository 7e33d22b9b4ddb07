import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';

/** POST account/verifytoken: true when the server still accepts the token. */
export async function verifyToken(token: string): Promise<boolean> {
  try {
    await apiClient.post<{ token: string }>(api.verifyToken, { api_token: token }, { skipAuthRefresh: true, notFoundRedirect: false });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return false;
    // An outage says nothing about the token: keep the session.
    return true;
  }
}

/**
 * The check done on every navigation (spec section 2): a rejected token is refreshed once; when that
 * fails too, the auth is purged and the guard sends the user to sign in.
 */
export async function ensureValidToken(): Promise<boolean> {
  const token = authStore.getToken();
  if (!token) return false;
  if (await verifyToken(token)) return true;
  if (authStore.getToken() !== token) return true; // signed in again meanwhile
  const refreshed = await apiClient.refresh();
  if (refreshed) return true;
  authStore.purge();
  return false;
}
