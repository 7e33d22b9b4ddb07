import { Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The frame of the public account screens; compact in fox mode. */
export function AuthCard({ titleKey, children, compact = false }: { titleKey: string; children: ReactNode; compact?: boolean }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <Paper
      withBorder={!compact}
      shadow={compact ? undefined : 'sm'}
      p={compact ? 'sm' : 'xl'}
      radius="md"
      maw={440}
      mx="auto"
      mt={compact ? 0 : 'xl'}
    >
      <Stack gap={compact ? 'sm' : 'md'}>
        <div>
          <Title order={1} size={compact ? 'h3' : 'h2'}>
            {title}
          </Title>
          {!compact && (
            <Text c="dimmed" size="sm" mt={4}>
              {t('app.tagline')}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
