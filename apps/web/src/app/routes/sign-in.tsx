import { Alert } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { AuthCard, SignInForm } from '@/features/auth';
import { authStore } from '@/lib/auth-store';

function useAfterSignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return () => navigate(from && from !== paths.signOut ? from : paths.dashboard, { replace: true });
}

/** Someone already signed in who opens a sign-in screen goes to the dashboard (checked once, on arrival). */
function useSignedInOnArrival(): boolean {
  const [signedIn] = useState(() => authStore.getToken() !== null);
  return signedIn;
}

export default function SignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const done = useAfterSignIn();
  const signedInOnArrival = useSignedInOnArrival();
  const signedOut = (location.state as { signedOut?: boolean } | null)?.signedOut;
  if (signedInOnArrival) return <Navigate to={paths.dashboard} replace />;
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
  const signedInOnArrival = useSignedInOnArrival();
  if (signedInOnArrival) return <Navigate to={paths.dashboard} replace />;
  return (
    <AuthCard titleKey="titles.signIn" compact>
      <SignInForm onSignedIn={done} compact />
    </AuthCard>
  );
}
