import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorTexts } from '@/lib/error-text';

/** A failed account call as the error state: the `errors` of the answer under a title. */
export function ApiErrorAlert({ error, titleKey }: { error: unknown; titleKey: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  const messages = [...new Set(errorTexts(error).map((m) => t(m, { defaultValue: m })))];
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
