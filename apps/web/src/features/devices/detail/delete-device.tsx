import { Button, Card, Group, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Device } from '@phasewatch/shared';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDelete } from '@/components/ui/confirm-delete';
import { paths } from '@/config/paths';
import { useDeleteDevice } from '../api/delete-device';

/** Delete with a confirmation that says it cannot be undone; then back to the dashboard. */
export function DeleteDevice({ device }: { device: Pick<Device, 'id' | 'name'> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const remove = useDeleteDevice(device.id);

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        notifications.show({ color: 'teal', message: t('messages.deviceDeleted') });
        void navigate(paths.dashboard);
      },
      onError: () => notifications.show({ color: 'red', message: t('messages.deleteDeviceFailed') }),
    });

  return (
    <Card withBorder padding="lg" data-delete-device>
      <Group justify="space-between" gap="sm">
        <div>
          <Title order={2} size="h4">
            {t('detail.delete.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('detail.delete.hint')}
          </Text>
        </div>
        <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setOpen(true)}>
          {t('detail.delete.button')}
        </Button>
      </Group>
      <ConfirmDelete
        opened={open}
        onClose={() => setOpen(false)}
        title={t('detail.delete.confirmTitle', { name: device.name })}
        text={t('detail.delete.confirmText')}
        pending={remove.isPending}
        onConfirm={confirm}
      />
    </Card>
  );
}
