import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { resetPasswordRequestSchema } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PasswordStrengthInput } from '@/components/ui/password-strength';
import { paths } from '@/config/paths';
import { ApiErrorAlert, AuthCard, useResetPassword } from '@/features/auth';
import { foxMode } from '@/lib/fox-mode';
import { useSchemaForm } from '@/lib/use-schema-form';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const form = useSchemaForm(resetPasswordRequestSchema, { token, password: '' });
  const reset = useResetPassword();
  return (
    <AuthCard titleKey="titles.resetPassword">
      {!token ? (
        <Alert color="red">{t('auth.resetMissingToken')}</Alert>
      ) : reset.isSuccess ? (
        <Alert color="teal" role="status">
          {t('auth.resetDone')}
        </Alert>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const body = form.validate();
            if (body) reset.mutate(body);
          }}
        >
          <Stack gap="sm">
            <ApiErrorAlert error={reset.error} titleKey="auth.tryAgain" />
            <PasswordStrengthInput label={t('auth.newPassword')} autoComplete="new-password" required {...form.textProps('password')} />
            <Button type="submit" loading={reset.isPending} fullWidth>
              {t('auth.setPassword')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to={foxMode.get() ? paths.signInFox : paths.signIn} size="sm" ta="center">
        {t('auth.backToSignIn')}
      </Anchor>
    </AuthCard>
  );
}
