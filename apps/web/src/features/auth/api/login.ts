import type { AuthResponse, LoginRequest } from '@phasewatch/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { signedIn } from '@/features/profile';
import { apiClient } from '@/lib/api';

/** POST account/login; a 401 here means bad credentials, so no refresh is tried. */
export function login(body: LoginRequest): Promise<AuthResponse> {
  return apiClient.post<AuthResponse>(api.login, body, { skipAuthRefresh: true, notFoundRedirect: false });
}

export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: signedIn,
  });
}
