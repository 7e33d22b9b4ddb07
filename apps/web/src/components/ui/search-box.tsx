import { Loader, TextInput, type TextInputProps } from '@mantine/core';
import { SEARCH_MIN_LENGTH } from '@phasewatch/shared';
import { IconSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type SearchState = 'idle' | 'processing';

export interface SearchBoxProps extends Omit<TextInputProps, 'onChange' | 'value'> {
  onSearch(query: string): void | Promise<void>;
  onClear(): void;
  minLength?: number;
}

/**
 * Search box of spec section 5: searches from 2 characters on, or at once on Enter; clears when the
 * input becomes empty. Shows "processing" while a search runs; only the latest answer ends it.
 */
export function SearchBox({ onSearch, onClear, minLength = SEARCH_MIN_LENGTH, ...rest }: SearchBoxProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [state, setState] = useState<SearchState>('idle');
  const seq = useRef(0);

  const run = async (q: string) => {
    const id = ++seq.current;
    setState('processing');
    try {
      await onSearch(q);
    } finally {
      if (id === seq.current) setState('idle');
    }
  };

  return (
    <TextInput
      type="search"
      aria-label={t('widgets.search')}
      placeholder={t('widgets.search')}
      leftSection={<IconSearch size={16} />}
      rightSection={state === 'processing' ? <Loader size="xs" aria-label={t('widgets.searching')} /> : null}
      data-state={state}
      aria-busy={state === 'processing'}
      value={value}
      onChange={(e) => {
        const q = e.currentTarget.value;
        setValue(q);
        if (q.trim() === '') {
          seq.current++;
          setState('idle');
          onClear();
        } else if (q.trim().length >= minLength) void run(q.trim());
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          if (value.trim() !== '') void run(value.trim());
        }
      }}
      {...rest}
    />
  );
}
