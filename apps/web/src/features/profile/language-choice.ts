import { notifications } from '@mantine/notifications';
import type { AuthResponse, Language, User } from '@phasewatch/shared';
import { useEffect } from 'react';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { i18n, isLanguage, setLanguage } from '@/i18n';
import { authStore, useAuth } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';
import { readStorage, writeStorage } from '@/lib/storage';
import { userInfoQueryOptions } from './api/get-user-info';
import { updateProfile } from './api/update-profile';

/*
 * One rule for the interface language: the profile's language is the user's choice. Signed in, the UI
 * shows it; the header picker changes it (and saves the profile). Signed out, the picker sets the UI
 * language and remembers the pick, which becomes the profile's at the next sign-in.
 */

async function saveProfileLanguage(user: User, language: Language): Promise<void> {
  // A profile saves whole, and its full name is required: an account registered without one keeps the
  // language in this browser until the profile form (which asks for the name) is saved.
  if (!user.fullName.trim()) return;
  try {
    const saved = await updateProfile({ fullName: user.fullName, country: user.country, timezone: user.timezone, language });
    if (authStore.get().user?.id !== saved.id) return;
    authStore.setUser(saved);
    queryClient.setQueryData(userInfoQueryOptions().queryKey, saved);
  } catch {
    notifications.show({ color: 'red', message: i18n.t('messages.unableToSave') });
  }
}

/** The header picker: switches the interface and, for a signed-in user, saves the profile's language. */
export async function chooseLanguage(language: Language): Promise<void> {
  await setLanguage(language);
  const { token, user } = authStore.get();
  if (!token || !user) {
    writeStorage(STORAGE_KEYS.languagePicked, language);
    return;
  }
  writeStorage(STORAGE_KEYS.languagePicked, null);
  if (user.language === language) return;
  // Shown at once; the saved record follows.
  authStore.setUser({ ...user, language });
  await saveProfileLanguage(user, language);
}

/**
 * Stores the auth of a sign-in (login or register). A language picked on the sign-in screen is the
 * user's latest choice: it becomes the profile's. Otherwise the profile's language applies.
 */
export function signedIn(auth: AuthResponse): void {
  const picked = readStorage(STORAGE_KEYS.languagePicked);
  writeStorage(STORAGE_KEYS.languagePicked, null);
  if (isLanguage(picked) && picked !== auth.user.language) {
    authStore.setAuth(auth.token, { ...auth.user, language: picked });
    void saveProfileLanguage(auth.user, picked);
    return;
  }
  authStore.setAuth(auth.token, auth.user);
}

/** Keeps the interface in the signed-in user's language (after sign-in, a refresh, another tab's change). */
export function useProfileLanguage(): void {
  const { token, user } = useAuth();
  const language = token ? user?.language : undefined;
  useEffect(() => {
    if (isLanguage(language) && i18n.language !== language) void setLanguage(language);
  }, [language]);
}
