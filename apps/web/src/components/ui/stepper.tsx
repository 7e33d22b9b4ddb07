import { Button, Group, Stepper } from '@mantine/core';
import { type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@/lib/use-phone';

export type StepStatus = 'completed' | 'current' | 'pending';
export type StepperPosition = 'first' | 'between' | 'last';

/** Step change animation (spec section 9). */
export const STEPPER_ANIMATION_S = 0.3;

/**
 * Stepper state of spec section 2: starts at step 1, remembers the previously passed step, and tells
 * each step's status and where the whole stands (first, between or last).
 */
export function useStepper(total: number) {
  const [active, setActive] = useState(1);
  const [previous, setPrevious] = useState<number | null>(null);
  const goTo = useCallback(
    (step: number) => {
      const next = Math.min(Math.max(1, step), total);
      setActive((current) => {
        if (current !== next) setPrevious(current);
        return next;
      });
    },
    [total],
  );
  const statusOf = (step: number): StepStatus => (step < active ? 'completed' : step === active ? 'current' : 'pending');
  const position: StepperPosition = active <= 1 ? 'first' : active >= total ? 'last' : 'between';
  return { active, previous, position, statusOf, goTo, next: () => goTo(active + 1), back: () => goTo(active - 1) };
}

export interface StepDef {
  label: string;
  description?: string;
  content: ReactNode;
  /**
   * Runs when Next (or Finish) is pressed on this step; the step is left only when it answers true
   * (e.g. its form is valid, or a request behind it succeeded). The button shows a spinner meanwhile.
   */
  onNext?: () => boolean | Promise<boolean>;
  /** Text of the Next button on this step (e.g. "Create device"). */
  nextLabel?: string;
  /** Once here, the steps before cannot be revisited (e.g. after the step that created something). */
  final?: boolean;
}

/** A step-by-step form frame on Mantine's Stepper; next/back buttons move between the steps. */
export function StepperWidget({ steps, onFinish, finishLabel }: { steps: StepDef[]; onFinish?: () => void; finishLabel?: string }) {
  const { t } = useTranslation();
  const s = useStepper(steps.length);
  const [busy, setBusy] = useState(false);
  // Below 576 px the row of steps does not fit with every label: the current step keeps its label.
  const phone = usePhone();
  const current = steps[s.active - 1];
  const locked = steps.slice(0, s.active).some((step) => step.final);
  const advance = async () => {
    if (current?.onNext) {
      setBusy(true);
      try {
        if (!(await current.onNext())) return;
      } finally {
        setBusy(false);
      }
    }
    if (s.position === 'last') onFinish?.();
    else s.next();
  };
  const nextText = current?.nextLabel ?? (s.position === 'last' && finishLabel ? finishLabel : t('widgets.next'));
  return (
    <div data-position={s.position} data-previous={s.previous ?? ''}>
      <Stepper active={s.active - 1} onStepClick={(i) => !locked && s.goTo(i + 1)} allowNextStepsSelect={false} size="sm">
        {steps.map((step, i) => (
          <Stepper.Step
            key={step.label}
            label={phone && i + 1 !== s.active ? undefined : step.label}
            description={phone ? undefined : step.description}
            data-status={s.statusOf(i + 1)}
            aria-label={`${t('widgets.step', { n: i + 1 })}: ${step.label}`}
            allowStepSelect={!locked && i + 1 < s.active}
          >
            <div style={{ animation: `pw-fade-in ${STEPPER_ANIMATION_S}s ease` }}>{step.content}</div>
          </Stepper.Step>
        ))}
      </Stepper>
      <Group justify="space-between" mt="md">
        <Button variant="default" onClick={s.back} disabled={s.position === 'first' || locked || busy}>
          {t('widgets.back')}
        </Button>
        <Button onClick={() => void advance()} loading={busy}>
          {nextText}
        </Button>
      </Group>
    </div>
  );
}
