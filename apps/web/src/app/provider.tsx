import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { SessionRealtime } from '@/features/realtime/session-realtime';
import { i18n } from '@/i18n';
import { queryClient } from '@/lib/query-client';
import { theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
        <Notifications position="top-right" zIndex={400} />
        <QueryClientProvider client={queryClient}>
          <SessionRealtime>{children}</SessionRealtime>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
