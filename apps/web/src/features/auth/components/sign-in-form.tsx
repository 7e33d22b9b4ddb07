import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { loginRequestSchema } from '@phasewatch/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useLogin } from '../api/login';
import { ApiErrorAlert } from './api-errors';

/**
 * The sign-in toast's text, translated as it renders: the profile's language is applied just after the
 * sign-in, and a text fixed when the toast opened stayed in the sign-in page's language.
 */
export function SignedInText() {
  const { t } = useTranslation();
  return <>{t('auth.loggedIn')}</>;
}

/** The sign-in form: errors of the answer under "Try again!", success told as a toast. */
export function SignInForm({ onSignedIn, compact = false }: { onSignedIn(): void; compact?: boolean }) {
  const { t } = useTranslation();
  const form = useSchemaForm(loginRequestSchema, { email: '', password: '' });
  const login = useLogin();
  // An answer's errors belong to the attempt that got them: editing a field clears them, so a stale
  // "Try again!" never stands beside a new field error.
  const { reset } = login;
  const { email, password } = form.values;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a field changes, which the values mark
  useEffect(() => reset(), [email, password, reset]);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const body = form.validate();
        if (!body) {
          login.reset();
          return;
        }
        login.mutate(body, {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: <SignedInText /> });
            onSignedIn();
          },
        });
      }}
    >
      <Stack gap={compact ? 'xs' : 'sm'}>
        <ApiErrorAlert error={login.error} titleKey="auth.tryAgain" />
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          required
          {...form.textProps('email')}
          data-autofocus
          autoFocus
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          required
          {...form.textProps('password')}
          visibilityToggleButtonProps={{ 'aria-label': t('widgets.showPassword') }}
        />
        <Button type="submit" loading={login.isPending} fullWidth mt="xs">
          {t('auth.signIn')}
        </Button>
        <Group justify="space-between" gap="xs">
          <Anchor component={Link} to={paths.forgotPassword} size="sm">
            {t('auth.forgotPassword')}
          </Anchor>
          <Text size="sm">
            {t('auth.noAccount')}{' '}
            <Anchor component={Link} to={paths.register} underline="always">
              {t('auth.createAccount')}
            </Anchor>
          </Text>
        </Group>
      </Stack>
    </form>
  );
}
