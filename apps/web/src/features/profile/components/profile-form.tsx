import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { LANGUAGES, type Language, timezoneForCountry, type User, updateProfileRequestSchema } from '@phasewatch/shared';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@/i18n';
import { ApiError } from '@/lib/api-client';
import { countryOptions, timezoneOptions } from '@/lib/countries';
import { formatServerDate } from '@/lib/dates';
import { fieldErrorsOf } from '@/lib/error-text';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useUpdateProfile } from '../api/update-profile';

type Values = { fullName: string; country: string; timezone: string; language: Language };

const toValues = (u: User): Values => ({ fullName: u.fullName, country: u.country, timezone: u.timezone, language: u.language });

/** Profile: full name, country, timezone (from the country, editable) and language; the email is read-only. */
export function ProfileForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const form = useSchemaForm(updateProfileRequestSchema, toValues(user));
  const update = useUpdateProfile();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const zones = useMemo(() => timezoneOptions(form.values.country, form.values.timezone), [form.values.country, form.values.timezone]);
  const { reset } = form;
  useEffect(() => reset(toValues(user)), [user, reset]);

  return (
    <form
      noValidate
      aria-label={t('titles.profile')}
      onSubmit={(e) => {
        e.preventDefault();
        const body = form.validate();
        if (!body) {
          notifications.show({ color: 'red', message: t('messages.unableToSave') });
          return;
        }
        update.mutate(body, {
          onSuccess: (saved) => {
            void setLanguage(saved.language);
            notifications.show({ color: 'teal', message: t('messages.changesSaved') });
          },
          onError: (error) => {
            if (error instanceof ApiError && error.kind === 'http') {
              form.setErrors(fieldErrorsOf(error, form.values));
              notifications.show({ color: 'red', message: t('messages.unableToSave') });
            }
          },
        });
      }}
    >
      <Stack gap="sm" maw={560}>
        <TextInput label={t('profile.email')} value={user.email} readOnly disabled description={t('profile.emailReadOnly')} name="email" />
        <TextInput label={t('profile.fullName')} autoComplete="name" required {...form.textProps('fullName')} />
        <Select
          label={t('profile.country')}
          name="country"
          required
          searchable
          data={countries}
          value={form.values.country || null}
          onChange={(v) => {
            form.setValue('country', v ?? '');
            if (v) form.setValue('timezone', timezoneForCountry(v));
          }}
          onBlur={() => form.validateField('country', form.values.country)}
          error={form.errorText('country')}
          nothingFoundMessage="—"
          comboboxProps={{ zIndex: 200 }}
        />
        <Select
          label={t('profile.timezone')}
          name="timezone"
          required
          searchable
          description={t('profile.timezoneHint')}
          data={zones}
          value={form.values.timezone || null}
          onChange={(v) => form.setValue('timezone', v ?? '')}
          onBlur={() => form.validateField('timezone', form.values.timezone)}
          error={form.errorText('timezone')}
          comboboxProps={{ zIndex: 200 }}
        />
        <Select
          label={t('profile.language')}
          name="language"
          required
          data={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
          value={form.values.language}
          onChange={(v) => form.setValue('language', (v ?? 'en') as Language)}
          allowDeselect={false}
          error={form.errorText('language')}
          comboboxProps={{ zIndex: 200 }}
        />
        <Group justify="space-between" mt="sm" wrap="wrap">
          <Text size="sm" c="dimmed">
            {t('profile.memberSince', { date: formatServerDate(user.createdAt, { timeZone: user.timezone, locale: i18n.language }) })}
          </Text>
          <Button type="submit" loading={update.isPending}>
            {t('profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
