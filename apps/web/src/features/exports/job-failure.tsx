import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadArea } from '@/i18n';

/** The server's reason for a failed job when it is one the user can read (`jobs.failure.*`), else null. */
export function jobFailureKey(error: string | null | undefined): string | null {
  return error && /^jobs\.failure\.[A-Za-z]+$/.test(error) ? error : null;
}

/** Why a job failed, in the user's language (nothing for a reason the server did not name). */
export function JobFailureReason({ error }: { error: string | null | undefined }) {
  const { t } = useTranslation();
  const key = jobFailureKey(error);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (key) void loadArea('jobs').then(() => setLoaded(true));
  }, [key]);
  if (!key || !loaded) return null;
  return (
    <Text size="sm" data-job-failure={key}>
      {t(key)}
    </Text>
  );
}
