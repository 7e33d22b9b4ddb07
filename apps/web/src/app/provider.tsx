import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { LazyExportNotices } from '@/features/exports/components/export-notices-lazy';
import { useProfileLanguage } from '@/features/profile/language-choice';
import { SessionRealtime } from '@/features/realtime/session-realtime';
import { i18n } from '@/i18n';
import { queryClient } from '@/lib/query-client';
import { cssVariablesResolver, theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });

/** The interface follows the signed-in user's profile language. */
function ProfileLanguage() {
  useProfileLanguage();
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        colorSchemeManager={colorSchemeManager}
        defaultColorScheme="auto"
      >
        {/* Bottom right: a toast at the top covered the header menu for its 4 s. */}
        <Notifications position="bottom-right" zIndex={400} />
        <QueryClientProvider client={queryClient}>
          <ProfileLanguage />
          <SessionRealtime>
            <LazyExportNotices />
            {children}
          </SessionRealtime>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
