import { Switch, type SwitchProps } from '@mantine/core';
import { useUncontrolled } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

export interface ToggleProps extends Omit<SwitchProps, 'checked' | 'defaultChecked' | 'onChange'> {
  checked?: boolean;
  defaultChecked?: boolean;
  onChange?(on: boolean): void;
}

/** An on/off toggle (spec section 2), controlled or not; its state is announced as on or off. */
export function Toggle({ checked, defaultChecked = false, onChange, ...rest }: ToggleProps) {
  const { t } = useTranslation();
  const [on, setOn] = useUncontrolled({ value: checked, defaultValue: defaultChecked, finalValue: false, onChange });
  return (
    <Switch
      checked={on}
      onChange={(e) => setOn(e.currentTarget.checked)}
      onLabel={t('widgets.on')}
      offLabel={t('widgets.off')}
      data-state={on ? 'on' : 'off'}
      size="md"
      {...rest}
    />
  );
}
