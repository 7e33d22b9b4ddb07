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

/**
 * A header menu's open state, kept here rather than in the deferred menu: it lives across the swap of
 * the look-alike button for the real menu. Pressing the look-alike opens the menu once it has arrived.
 * While a press on the look-alike is under way the swap waits for its click: swapped between pointer
 * down and up, the press landed on a removed button (no click at all), and a menu that kept its own
 * state came back closed when remounted — the Theme menu "closed by itself" in the dashboard's first
 * second, when the menus arrive.
 */
function useHeaderMenu() {
  const mod = useDeferredModule(menus);
  const [opened, setOpened] = useState(false);
  const [pressing, setPressing] = useState(false);
  const placeholder = {
    'aria-haspopup': 'menu' as const,
    onPointerDown: () => setPressing(true),
    onPointerLeave: () => setPressing(false),
    onPointerCancel: () => setPressing(false),
    onClick: () => {
      setPressing(false);
      setOpened(true);
      void menus.load();
    },
  };
  return { mod: pressing ? null : mod, opened, setOpened, placeholder };
}

/** Language picker as a compact header menu. */
export function LanguageMenu({ onChange }: { onChange?: OnLanguage }) {
  const { t } = useTranslation();
  const m = useHeaderMenu();
  if (m.mod) return <m.mod.LanguageMenu {...(onChange ? { onChange } : {})} opened={m.opened} onOpenedChange={m.setOpened} />;
  return (
    <ActionIcon variant="default" size="lg" aria-label={t('nav.language')} {...m.placeholder}>
      <IconLanguage size={18} />
    </ActionIcon>
  );
}

/** Light, dark or system theme; Mantine keeps the choice in local storage. */
export function ThemeMenu() {
  const { t } = useTranslation();
  const { colorScheme } = useMantineColorScheme();
  const m = useHeaderMenu();
  if (m.mod) return <m.mod.ThemeMenu opened={m.opened} onOpenedChange={m.setOpened} />;
  const Current = { light: IconSun, dark: IconMoon, auto: IconDeviceDesktop }[colorScheme];
  return (
    <ActionIcon variant="default" size="lg" aria-label={t('nav.theme')} {...m.placeholder}>
      <Current size={18} />
    </ActionIcon>
  );
}
