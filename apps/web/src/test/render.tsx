import { MantineProvider } from '@mantine/core';
import { type RenderOptions, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { theme } from '@/app/theme';
import { i18n } from '@/i18n';

function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} env="test">
        {children}
      </MantineProvider>
    </I18nextProvider>
  );
}

/** Renders inside the app's Mantine theme and i18n (English), without transitions. */
export function renderUi(ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>) {
  return render(ui, { wrapper: Providers, ...options });
}
