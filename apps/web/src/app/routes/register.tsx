import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { RegisterForm } from '@/features/auth/components/register-form';

export default function RegisterPage() {
  const navigate = useNavigate();
  return (
    <AuthCard titleKey="titles.register">
      <RegisterForm onRegistered={() => navigate(paths.dashboard, { replace: true })} />
    </AuthCard>
  );
}
