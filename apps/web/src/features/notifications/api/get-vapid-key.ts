import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET push/vapid-public-key: the server's key, the browser's `applicationServerKey`. */
export async function getVapidKey(): Promise<string> {
  return (await apiClient.get<{ publicKey: string }>(api.pushVapidKey, { notFoundRedirect: false })).publicKey;
}
