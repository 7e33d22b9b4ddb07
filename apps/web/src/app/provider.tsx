import { localStorageColorSchemeManager, MantineProvider, mergeThemeOverrides, Notification } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { LazyExportNotices } from '@/features/exports';
import { useProfileLanguage } from '@/features/profile';
import { SessionRealtime } from '@/features/realtime';
import { i18n } from '@/i18n';
import { queryClient } from '@/lib/query-client';
import { cssVariablesResolver, theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });

/** The interface follows the signed-in user's profile language. */
function ProfileLanguage() {
  useProfileLanguage();
  return null;
}

/**
 * Mantine with the app's theme, plus what needs the user's language: a toast's close button is named
 * ("Close", axe's button-name rule) for every toast, whoever shows it.
 */
function ThemedMantine({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const close = t('widgets.close');
  const localized = useMemo(
    () =>
      mergeThemeOverrides(theme, {
        components: { Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': close, title: close } } }) },
      }),
    [close],
  );
  return (
    <MantineProvider
      theme={localized}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      {children}
    </MantineProvider>
  );
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemedMantine>
        {/* Bottom right: a toast at the top covered the header menu for its 4 s. */}
        <Notifications position="bottom-right" zIndex={400} />
        <QueryClientProvider client={queryClient}>
          <ProfileLanguage />
          <SessionRealtime>
            <LazyExportNotices />
            {children}
          </SessionRealtime>
        </QueryClientProvider>
      </ThemedMantine>
    </I18nextProvider>
  );
}
