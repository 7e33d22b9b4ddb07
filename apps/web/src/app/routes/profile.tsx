import { Card, Skeleton, Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { QueryLoader } from '@/components/query-loader';
import { loadPushBrowserSwitch } from '@/features/notifications';
import { ProfileForm, useUserInfo } from '@/features/profile';
import { withArea } from '@/i18n';
import { errorTexts } from '@/lib/error-text';

const PushBrowserSwitch = lazy(() =>
  withArea('notifications', loadPushBrowserSwitch)().then((m) => ({
    default: m.PushBrowserSwitch,
  })),
);

export default function ProfilePage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  return (
    <Page titleKey="titles.profile">
      <Card withBorder padding="lg" maw={680}>
        <QueryLoader
          query={user}
          skeleton={
            <Stack aria-busy aria-label={t('app.loading')}>
              {[1, 2, 3, 4, 5].map((i) => (
                <Skeleton key={i} h={36} maw={560} />
              ))}
            </Stack>
          }
          errorText={t(errorTexts(user.error)[0] ?? 'errors.generic')}
        >
          {(data) => <ProfileForm user={data} />}
        </QueryLoader>
      </Card>
      <Card withBorder padding="lg" maw={680}>
        <Suspense fallback={<Skeleton h={72} />}>
          <PushBrowserSwitch />
        </Suspense>
      </Card>
    </Page>
  );
}
