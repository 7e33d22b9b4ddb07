import { useMutation } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** POST forgot_password: answers ok whether or not the account exists. */
export function forgotPassword(body: { email: string }): Promise<{ ok: true }> {
  return apiClient.post<{ ok: true }>(api.forgotPassword, body, { skipAuthRefresh: true, notFoundRedirect: false });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
