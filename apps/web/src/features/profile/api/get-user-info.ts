import type { User } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET account/userInfo: the signed-in user's record. */
export function getUserInfo(): Promise<User> {
  return apiClient.get<User>(api.userInfo);
}

export const userInfoQueryOptions = () => queryOptions({ queryKey: ['account', 'userInfo'], queryFn: getUserInfo });

export function useUserInfo() {
  return useQuery(userInfoQueryOptions());
}
