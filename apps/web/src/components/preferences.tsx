import { ActionIcon, useMantineColorScheme } from '@mantine/core';
import type { Language } from '@phasewatch/shared';
import { IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deferredModule, useDeferredModule } from './ui/deferred';

/** How a picked language is applied; the app passes its rule (the profile's language), plain switching by default. */
type OnLanguage = (language: Language) => void | Promise<void>;

/** The header's menus (Mantine's Menu and its positioning library) arrive just after the first paint. */
const menus = deferredModule(() => import('./preferences-menus'));

/** Until the menu has loaded: the same button; pressing it opens the menu on arrival. */
function usePlaceholder() {
  const [openOnArrival, setOpenOnArrival] = useState(false);
  return {
    openOnArrival,
    onClick: () => {
      setOpenOnArrival(true);
      void menus.load();
    },
  };
}

/** Language picker as a compact header menu. */
export function LanguageMenu({ onChange }: { onChange?: OnLanguage }) {
  const { t } = useTranslation();
  const mod = useDeferredModule(menus);
  const p = usePlaceholder();
  if (mod) return <mod.LanguageMenu {...(onChange ? { onChange } : {})} defaultOpened={p.openOnArrival} />;
  return (
    <ActionIcon variant="default" size="lg" aria-label={t('nav.language')} aria-haspopup="menu" onClick={p.onClick}>
      <IconLanguage size={18} />
    </ActionIcon>
  );
}

/** Light, dark or system theme; Mantine keeps the choice in local storage. */
export function ThemeMenu() {
  const { t } = useTranslation();
  const { colorScheme } = useMantineColorScheme();
  const mod = useDeferredModule(menus);
  const p = usePlaceholder();
  if (mod) return <mod.ThemeMenu defaultOpened={p.openOnArrival} />;
  const Current = { light: IconSun, dark: IconMoon, auto: IconDeviceDesktop }[colorScheme];
  return (
    <ActionIcon variant="default" size="lg" aria-label={t('nav.theme')} aria-haspopup="menu" onClick={p.onClick}>
      <Current size={18} />
    </ActionIcon>
  );
}
