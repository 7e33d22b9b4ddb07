import type { AuthResponse, RegisterRequest } from '@phasewatch/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { signedIn } from '@/features/profile';
import { apiClient } from '@/lib/api';

/** POST register: creates the account and signs it in. */
export function register(body: RegisterRequest): Promise<AuthResponse> {
  return apiClient.post<AuthResponse>(api.register, body, { skipAuthRefresh: true, notFoundRedirect: false });
}

export function useRegister() {
  return useMutation({
    mutationFn: register,
    onSuccess: signedIn,
  });
}
