import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { logout } from '@/features/auth';
import { foxMode } from '@/lib/fox-mode';

export default function SignOutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout().then(() => navigate(foxMode.get() ? paths.signInFox : paths.signIn, { replace: true, state: { signedOut: true } }));
  }, [navigate]);
  return (
    <Center py="xl">
      <Stack align="center">
        <Loader />
        <Text>{t('auth.signingOut')}</Text>
      </Stack>
    </Center>
  );
}
