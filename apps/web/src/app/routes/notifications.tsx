import { Page } from '@/components/page';
import { NotificationCenter } from '@/features/notifications';

/** /notifications: the notification centre (the header's bell leads here; pushes and mails link here). */
export default function NotificationsPage() {
  return (
    <Page titleKey="notifications.title">
      <NotificationCenter />
    </Page>
  );
}
