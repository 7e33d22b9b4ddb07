import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ConfirmDeleteProps {
  opened: boolean;
  onClose(): void;
  /** "Delete Home?" */
  title: string;
  /** What deleting takes with it, or that it cannot be undone. */
  text: string;
  pending: boolean;
  onConfirm(): void;
}

/** The confirmation before deleting something (a device, a location, a tariff): Cancel, or Delete in red. */
export function ConfirmDelete({ opened, onClose, title, text, pending, onConfirm }: ConfirmDeleteProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': t('widgets.close') }}>
      <Stack>
        <Text>{text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('detail.delete.cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending} data-confirm-delete>
            {t('detail.delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
