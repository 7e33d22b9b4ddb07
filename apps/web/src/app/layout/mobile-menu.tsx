import { Box, Divider } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PreferencesPanel } from '@/components/preferences-panel';
import { AppDrawer } from '@/components/ui/app-drawer';
import { type MenuEntry, NavMenu } from '@/components/ui/nav-menu';
import { chooseLanguage } from '@/features/profile';

/** Below 576 px: the menu, language and theme in a drawer opened by the header's burger. */
export function MobileMenu({
  opened,
  onClose,
  entries,
  trail,
  brand,
}: {
  opened: boolean;
  onClose(): void;
  entries: MenuEntry[];
  trail: string[];
  brand: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <AppDrawer opened={opened} onClose={onClose} title={brand} zIndex={300} closeButtonProps={{ 'aria-label': t('nav.closeMenu') }}>
      <Box component="nav" aria-label={t('nav.mainMenu')}>
        <NavMenu entries={entries} mode="accordion" mobile activeTrail={trail} onNavigate={onClose} />
      </Box>
      <Divider my="md" />
      <PreferencesPanel onLanguageChange={chooseLanguage} />
    </AppDrawer>
  );
}
