import { ActionIcon, Menu, useMantineColorScheme } from '@mantine/core';
import { LANGUAGES, type Language } from '@phasewatch/shared';
import { IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@/i18n';

type Scheme = 'light' | 'dark' | 'auto';
type OnLanguage = (language: Language) => void | Promise<void>;

/** Language picker as a compact header menu. */
/** Open or not: held by the caller (it outlives this deferred module's components). */
interface Opened {
  opened: boolean;
  onOpenedChange(opened: boolean): void;
}

export function LanguageMenu({ onChange = setLanguage, opened, onOpenedChange }: { onChange?: OnLanguage } & Opened) {
  const { t, i18n } = useTranslation();
  return (
    <Menu position="bottom-end" zIndex={110} opened={opened} onChange={onOpenedChange}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('nav.language')} data-menu-ready>
          <IconLanguage size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.language')}</Menu.Label>
        {LANGUAGES.map((l) => (
          <Menu.Item
            key={l}
            onClick={() => void onChange(l)}
            aria-current={i18n.language === l ? 'true' : undefined}
            lang={l}
            fw={i18n.language === l ? 700 : 400}
          >
            {t(`languages.${l}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Light, dark or system theme; Mantine keeps the choice in local storage. */
export function ThemeMenu({ opened, onOpenedChange }: Opened) {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const icons = { light: IconSun, dark: IconMoon, auto: IconDeviceDesktop };
  const Current = icons[colorScheme];
  const labels: Record<Scheme, string> = { light: t('nav.themeLight'), dark: t('nav.themeDark'), auto: t('nav.themeSystem') };
  return (
    <Menu position="bottom-end" zIndex={110} opened={opened} onChange={onOpenedChange}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('nav.theme')} data-menu-ready>
          <Current size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.theme')}</Menu.Label>
        {(['light', 'dark', 'auto'] as const).map((s) => {
          const Icon = icons[s];
          return (
            <Menu.Item key={s} leftSection={<Icon size={16} />} onClick={() => setColorScheme(s)} fw={colorScheme === s ? 700 : 400}>
              {labels[s]}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
