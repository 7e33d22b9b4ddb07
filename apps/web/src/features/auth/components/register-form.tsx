import { Anchor, Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { LANGUAGES, type Language, registerRequestSchema } from '@phasewatch/shared';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PasswordStrengthInput } from '@/components/ui/password-strength';
import { paths } from '@/config/paths';
import { isLanguage } from '@/i18n';
import { countryOptions } from '@/lib/countries';
import { foxMode } from '@/lib/fox-mode';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useRegister } from '../api/register';
import { ApiErrorAlert } from './api-errors';

export function RegisterForm({ onRegistered }: { onRegistered(): void }) {
  const { t, i18n } = useTranslation();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const form = useSchemaForm(registerRequestSchema, {
    email: '',
    password: '',
    fullName: '',
    country: language === 'tr' ? 'TR' : 'PL',
    language,
  });
  const register = useRegister();
  const { reset } = register;
  const { email, password, country } = form.values;
  // An answer's errors belong to the attempt that got them (see the sign-in form).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a field changes, which the values mark
  useEffect(() => reset(), [email, password, country, reset]);
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const body = form.validate();
        if (!body) {
          register.reset();
          return;
        }
        register.mutate(body, {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: t('auth.registered') });
            onRegistered();
          },
        });
      }}
    >
      <Stack gap="sm">
        <ApiErrorAlert error={register.error} titleKey="auth.tryAgain" />
        <TextInput label={t('auth.email')} type="email" autoComplete="email" required {...form.textProps('email')} />
        <PasswordStrengthInput label={t('auth.password')} autoComplete="new-password" required {...form.textProps('password')} />
        <TextInput label={t('auth.fullName')} autoComplete="name" {...form.textProps('fullName')} />
        <Select
          label={t('auth.country')}
          required
          searchable
          data={countries}
          value={form.values.country}
          onChange={(v) => form.setValue('country', v ?? '')}
          onBlur={() => form.validateField('country', form.values.country)}
          error={form.errorText('country')}
          nothingFoundMessage="—"
        />
        <Select
          label={t('auth.language')}
          data={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
          value={form.values.language}
          onChange={(v) => form.setValue('language', (v ?? 'en') as Language)}
          allowDeselect={false}
        />
        <Button type="submit" loading={register.isPending} fullWidth mt="xs">
          {t('auth.register')}
        </Button>
        <Text size="sm" ta="center">
          {t('auth.haveAccount')} {/* Underlined: inside a sentence the link must not rely on colour alone (axe link-in-text-block). */}
          <Anchor component={Link} to={foxMode.get() ? paths.signInFox : paths.signIn} underline="always">
            {t('auth.signIn')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
