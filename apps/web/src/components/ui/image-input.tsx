import { Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Image input states of spec section 2. */
export type ImageInputState = 'empty' | 'changed' | 'cancelled';

export interface ImageInputProps {
  /** Form name; the hidden remove flag is posted as `<name>_remove`. */
  name: string;
  /** The image stored now, if any. */
  initialUrl?: string | null;
  onChange?(file: File | null, state: ImageInputState): void;
  accept?: string;
}

/**
 * Picks an image with a preview. Remove empties it and sets the hidden flag to 1; cancel drops a new
 * choice, goes back to the stored image and sets the flag to 0.
 */
export function ImageInput({ name, initialUrl = null, onChange, accept = 'image/png,image/jpeg,image/webp' }: ImageInputProps) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<ImageInputState>(initialUrl ? 'cancelled' : 'empty');
  const [removeFlag, setRemoveFlag] = useState<0 | 1>(0);
  const [preview, setPreview] = useState<string | null>(initialUrl);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (f: File | null) => {
    if (!f) return;
    setFile(f);
    setState('changed');
    setRemoveFlag(0);
    onChange?.(f, 'changed');
  };
  const remove = () => {
    setFile(null);
    setPreview(null);
    setState('empty');
    setRemoveFlag(1);
    onChange?.(null, 'empty');
  };
  const cancel = () => {
    setFile(null);
    setPreview(initialUrl);
    setState('cancelled');
    setRemoveFlag(0);
    onChange?.(null, 'cancelled');
  };

  return (
    <Stack gap="xs" data-state={state}>
      {preview ? (
        <Image src={preview} alt={t('widgets.imagePreview')} maw={200} radius="sm" />
      ) : (
        <Text c="dimmed" size="sm">
          {t('widgets.noImage')}
        </Text>
      )}
      <input type="hidden" name={`${name}_remove`} value={removeFlag} data-testid={`${name}-remove-flag`} />
      <Group gap="xs">
        <FileButton onChange={choose} accept={accept} name={name}>
          {(props) => (
            <Button variant="light" {...props}>
              {t('widgets.chooseImage')}
            </Button>
          )}
        </FileButton>
        {preview && (
          <Button variant="default" onClick={remove}>
            {t('widgets.removeImage')}
          </Button>
        )}
        {(state === 'changed' || (state === 'empty' && initialUrl)) && (
          <Button variant="subtle" onClick={cancel}>
            {t('widgets.cancelImage')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
