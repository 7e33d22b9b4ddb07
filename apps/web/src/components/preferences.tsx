import { ActionIcon, Menu, SegmentedControl, Stack, Text, useMantineColorScheme } from '@mantine/core';
import { LANGUAGES, type Language } from '@phasewatch/shared';
import { IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@/i18n';

type Scheme = 'light' | 'dark' | 'auto';

/** How a picked language is applied; the app passes its rule (the profile's language), plain switching by default. */
type OnLanguage = (language: Language) => void | Promise<void>;

/** Language picker as a compact header menu. */
export function LanguageMenu({ onChange = setLanguage }: { onChange?: OnLanguage }) {
  const { t, i18n } = useTranslation();
  return (
    <Menu position="bottom-end" zIndex={110}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('nav.language')}>
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
export function ThemeMenu() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const icons = { light: IconSun, dark: IconMoon, auto: IconDeviceDesktop };
  const Current = icons[colorScheme];
  const labels: Record<Scheme, string> = { light: t('nav.themeLight'), dark: t('nav.themeDark'), auto: t('nav.themeSystem') };
  return (
    <Menu position="bottom-end" zIndex={110}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('nav.theme')}>
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

/** Both choices as segmented controls, for the mobile drawer. */
export function PreferencesPanel({ onLanguageChange = setLanguage }: { onLanguageChange?: OnLanguage }) {
  const { t, i18n } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Stack gap="xs">
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        {t('nav.language')}
      </Text>
      <SegmentedControl
        fullWidth
        size="xs"
        value={i18n.language}
        onChange={(v) => void onLanguageChange(v as Language)}
        data={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
        aria-label={t('nav.language')}
      />
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        {t('nav.theme')}
      </Text>
      <SegmentedControl
        fullWidth
        size="xs"
        value={colorScheme}
        onChange={(v) => setColorScheme(v as Scheme)}
        data={[
          { value: 'light', label: t('nav.themeLight') },
          { value: 'dark', label: t('nav.themeDark') },
          { value: 'auto', label: t('nav.themeSystem') },
        ]}
        aria-label={t('nav.theme')}
      />
    </Stack>
  );
}
