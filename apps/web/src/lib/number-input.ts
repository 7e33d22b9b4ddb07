import { numberFormat } from './intl';

/** What a Mantine NumberInput hands to `onChange`: a number when the text is one, else the text. */
export type NumberText = number | string;

/**
 * The number a NumberInput's text stands for, as the shared schemas see it: NaN when it is empty or not
 * a number yet ("-", "."), so the rule says why instead of a default being sent. The text arrives with
 * `.` as its decimal separator whatever the user's language shows.
 */
export function numberOfText(v: NumberText | null | undefined): number {
  if (typeof v === 'number') return v;
  const s = (v ?? '').trim();
  if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(s)) return Number.NaN;
  return Number(s);
}

/** The decimal separator of a language's numbers ("," in Polish and Turkish). */
export function decimalSeparatorOf(language: string): string {
  return (
    numberFormat(language)
      .formatToParts(1.5)
      .find((p) => p.type === 'decimal')?.value ?? '.'
  );
}

/**
 * NumberInput props under which what is shown is what is sent: nothing is clamped on blur (Mantine's
 * default turned −5 into 0 and 5000 into 1440 behind the user's back), decimals stay what was typed
 * (`allowDecimal={false}` dropped the separator: "1.5" became 15; a whole-number rule says so instead),
 * and numbers read in the user's language (1,5 in Polish). `min`/`max` still bound the arrow buttons.
 */
export function honestNumberProps(language: string) {
  return {
    clampBehavior: 'none' as const,
    trimLeadingZeroesOnBlur: false,
    allowDecimal: true,
    decimalSeparator: decimalSeparatorOf(language),
    thousandSeparator: false as const,
  };
}
