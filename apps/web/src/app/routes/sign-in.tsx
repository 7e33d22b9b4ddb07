import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { SignInForm } from '@/features/auth/components/sign-in-form';

function useAfterSignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return () => navigate(from && from !== paths.signOut ? from : paths.dashboard, { replace: true });
}

export default function SignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const done = useAfterSignIn();
  const signedOut = (location.state as { signedOut?: boolean } | null)?.signedOut;
  return (
    <AuthCard titleKey="titles.signIn">
      {signedOut && (
        <Alert color="teal" variant="light">
          {t('auth.signedOut')}
        </Alert>
      )}
      <SignInForm onSignedIn={done} />
    </AuthCard>
  );
}

/** /sign-in-fox: the same sign-in, compact and without chrome, for the mobile app (fox mode). */
export function SignInFoxPage() {
  const done = useAfterSignIn();
  return (
    <AuthCard titleKey="titles.signIn" compact>
      <SignInForm onSignedIn={done} compact />
    </AuthCard>
  );
}
