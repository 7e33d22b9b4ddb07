import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Location } from '@phasewatch/shared';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/components/ui/confirm-delete';
import { useDeleteLocation } from '../api/delete-location';

/** Delete with confirmation ("Location deleted"); its devices stay, without a location. */
export function DeleteLocationButton({
  location,
  onDeleted,
  compact,
}: {
  location: Pick<Location, 'id' | 'name' | 'devices' | 'tariffs'>;
  onDeleted?(): void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const remove = useDeleteLocation();
  return (
    <>
      <Button
        color="red"
        variant="subtle"
        size={compact ? 'compact-sm' : 'sm'}
        leftSection={<IconTrash size={16} />}
        onClick={() => setOpen(true)}
        aria-label={`${t('locations.delete')}: ${location.name}`}
      >
        {t('locations.delete')}
      </Button>
      <ConfirmDelete
        opened={open}
        onClose={() => setOpen(false)}
        title={t('locations.deleteTitle', { name: location.name })}
        text={t('locations.deleteText', { devices: location.devices.length, tariffs: location.tariffs.length })}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(location.id, {
            onSuccess: () => {
              setOpen(false);
              notifications.show({ color: 'teal', message: t('messages.locationDeleted') });
              onDeleted?.();
            },
            onError: () => notifications.show({ color: 'red', message: t('errors.generic') }),
          })
        }
      />
    </>
  );
}
