import { SegmentedControl, Stack, Text, useMantineColorScheme } from '@mantine/core';
import { LANGUAGES, type Language } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@/i18n';

type Scheme = 'light' | 'dark' | 'auto';
type OnLanguage = (language: Language) => void | Promise<void>;

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
