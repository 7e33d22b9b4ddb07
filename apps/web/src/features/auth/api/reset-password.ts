import { useMutation } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** POST reset_password with the token of the emailed link. */
export function resetPassword(body: { token: string; password: string }): Promise<{ ok: true }> {
  return apiClient.post<{ ok: true }>(api.resetPassword, body, { skipAuthRefresh: true, notFoundRedirect: false });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
