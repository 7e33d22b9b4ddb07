import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';

/** A failed account call as the error state: the `errors` of the answer under a title. */
export function ApiErrorAlert({ error, titleKey }: { error: unknown; titleKey: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  const messages =
    error instanceof ApiError
      ? error.errors.length > 0
        ? error.errors.map((e) => t(e.message, { defaultValue: e.message }))
        : [t(error.message, { defaultValue: error.message })]
      : [t('errors.generic')];
  return (
    <Alert color="red" icon={<IconAlertCircle />} title={t(titleKey)} role="alert">
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <List size="sm">
          {messages.map((m) => (
            <List.Item key={m}>{m}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
