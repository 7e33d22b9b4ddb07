import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { AuthCard, RegisterForm } from '@/features/auth';
import { authStore } from '@/lib/auth-store';

export default function RegisterPage() {
  const navigate = useNavigate();
  const [signedIn] = useState(() => authStore.getToken() !== null);
  if (signedIn) return <Navigate to={paths.dashboard} replace />;
  return (
    <AuthCard titleKey="titles.register">
      <RegisterForm onRegistered={() => navigate(paths.dashboard, { replace: true })} />
    </AuthCard>
  );
}
