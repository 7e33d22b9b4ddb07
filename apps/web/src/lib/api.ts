import { API_BASE_URL } from '@/config/paths';
import { createApiClient } from './api-client';
import { authStore } from './auth-store';

type Handler = () => void;
let notFoundHandler: Handler = () => window.location.assign('/404');

/** The router registers how to show the 404 page without a full reload. */
export function setNotFoundHandler(handler: Handler): void {
  notFoundHandler = handler;
}

/** The app's API client, wired to the auth store. */
export const apiClient = createApiClient({
  baseUrl: API_BASE_URL,
  getToken: authStore.getToken,
  getUser: () => authStore.get().user,
  onRefreshed: (auth) => authStore.setAuth(auth.token, auth.user),
  onPurge: () => authStore.purge(),
  onNotFound: () => notFoundHandler(),
  // A new server version: the loaded chunks may no longer exist, so load the new app.
  onVersionChange: () => window.location.reload(),
});
