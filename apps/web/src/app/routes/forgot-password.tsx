import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { forgotPasswordRequestSchema } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ApiErrorAlert, AuthCard, useForgotPassword } from '@/features/auth';
import { foxMode } from '@/lib/fox-mode';
import { useSchemaForm } from '@/lib/use-schema-form';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const form = useSchemaForm(forgotPasswordRequestSchema, { email: '' });
  const forgot = useForgotPassword();
  return (
    <AuthCard titleKey="titles.forgotPassword">
      {forgot.isSuccess ? (
        <Alert color="teal" role="status">
          {t('auth.forgotSent')}
        </Alert>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const body = form.validate();
            if (body) forgot.mutate(body);
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{t('auth.forgotIntro')}</Text>
            <ApiErrorAlert error={forgot.error} titleKey="auth.tryAgain" />
            <TextInput label={t('auth.email')} type="email" autoComplete="email" required {...form.textProps('email')} />
            <Button type="submit" loading={forgot.isPending} fullWidth>
              {t('auth.sendLink')}
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
