import type { UpdateProfileRequest, User } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { authStore } from '@/lib/auth-store';
import { userInfoQueryOptions } from './get-user-info';

/** POST account/update: full name, country, timezone and language (never the email). */
export function updateProfile(body: UpdateProfileRequest): Promise<User> {
  return apiClient.post<User>(api.updateProfile, body);
}

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      qc.setQueryData(userInfoQueryOptions().queryKey, user);
      authStore.setUser(user);
    },
  });
}
