import { Box, Group, PasswordInput, type PasswordInputProps, Progress, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { STRENGTH_METER_MIN_LENGTH } from '@phasewatch/shared';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The five checks of spec section 5; each met check is an equal share of 100. */
export const STRENGTH_CHECKS = [
  { key: 'length', label: 'widgets.checkLength', test: (p: string) => p.length >= STRENGTH_METER_MIN_LENGTH },
  { key: 'lower', label: 'widgets.checkLower', test: (p: string) => /\p{Ll}/u.test(p) },
  { key: 'upper', label: 'widgets.checkUpper', test: (p: string) => /\p{Lu}/u.test(p) },
  { key: 'digit', label: 'widgets.checkDigit', test: (p: string) => /\d/.test(p) },
  { key: 'special', label: 'widgets.checkSpecial', test: (p: string) => /[^\p{L}\p{N}\s]/u.test(p) },
] as const;

/** 0–100: 20 points per met check. It only informs; it blocks nothing. */
export function passwordStrength(password: string): number {
  const share = 100 / STRENGTH_CHECKS.length;
  return Math.round(STRENGTH_CHECKS.filter((c) => c.test(password)).length * share);
}

function colorFor(score: number): string {
  if (score >= 100) return 'teal';
  if (score >= 60) return 'yellow';
  return 'red';
}

/** A password field with Mantine's show/hide toggle and the five-bar strength meter under it. */
export function PasswordStrengthInput({ value, ...rest }: Omit<PasswordInputProps, 'value'> & { value: string }) {
  const { t } = useTranslation();
  const score = passwordStrength(value);
  const met = Math.round(score / (100 / STRENGTH_CHECKS.length));
  const [visible, { toggle }] = useDisclosure(false);
  return (
    <div>
      <PasswordInput
        value={value}
        visible={visible}
        onVisibilityChange={toggle}
        // Reachable by keyboard (Mantine skips it in the tab order by default).
        visibilityToggleButtonProps={{ 'aria-label': visible ? t('widgets.hidePassword') : t('widgets.showPassword'), tabIndex: 0 }}
        {...rest}
      />
      <Box
        mt={6}
        role="meter"
        aria-label={t('widgets.passwordStrength')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={score}
        aria-valuetext={t('widgets.strengthScore', { score })}
      >
        <Group gap={4} grow>
          {STRENGTH_CHECKS.map((c, i) => (
            <Progress
              key={c.key}
              size={4}
              value={value.length > 0 && i < met ? 100 : 0}
              color={colorFor(score)}
              data-lit={value.length > 0 && i < met}
              transitionDuration={0}
              aria-hidden
            />
          ))}
        </Group>
        <Box mt={6}>
          {STRENGTH_CHECKS.map((c) => {
            const ok = c.test(value);
            return (
              <Text
                key={c.key}
                size="xs"
                c={ok ? 'teal' : 'dimmed'}
                data-met={ok}
                style={{ display: 'flex', alignItems: 'center', gap: 4 }}
              >
                {ok ? <IconCheck size={12} /> : <IconX size={12} />} {t(c.label)}
              </Text>
            );
          })}
        </Box>
      </Box>
    </div>
  );
}
