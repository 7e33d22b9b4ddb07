import { Stack, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** A screen with its translated title, also used as the document title. */
export function Page({ titleKey, children, actions }: { titleKey: string; children?: ReactNode; actions?: ReactNode }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <Stack gap="md">
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12, flexWrap: 'wrap' }}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {actions}
      </div>
      {children}
    </Stack>
  );
}
