import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { honestNumberProps, type NumberText, numberOfText } from './number-input';

/** The parts of a zod object schema the form needs (kept structural so the web app stays zod-agnostic). */
interface Issue {
  path: PropertyKey[];
  message: string;
}
interface ParseResult<Out> {
  success: boolean;
  data?: Out;
  error?: { issues: Issue[] };
}
interface FieldSchema {
  safeParse(value: unknown): ParseResult<unknown>;
}
export interface ObjectSchema<Out> {
  shape: Record<string, FieldSchema>;
  safeParse(value: unknown): ParseResult<Out>;
}

export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/**
 * Form state validated with the shared schemas: a field is checked on blur, change and input (spec
 * section 5), the whole form on submit. Errors are i18n keys (`validation.*`) or server texts.
 */
export function useSchemaForm<V extends Record<string, unknown>, Out>(schema: ObjectSchema<Out>, initial: V) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  // Number fields as the user typed them ("1.", "-"): the input shows its text, the rule checks the number.
  const [texts, setTexts] = useState<Partial<Record<keyof V & string, NumberText>>>({});
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const initialRef = useRef(initial);

  const validateField = useCallback(
    (field: keyof V & string, value: unknown): string | undefined => {
      const fieldSchema = schema.shape[field];
      const r = fieldSchema?.safeParse(value);
      const message = r && !r.success ? r.error?.issues[0]?.message : undefined;
      setErrors((e) => ({ ...e, [field]: message }));
      return message;
    },
    [schema],
  );

  const setValue = useCallback(
    <K extends keyof V & string>(field: K, value: V[K]) => {
      setValues((v) => ({ ...v, [field]: value }));
      validateField(field, value);
    },
    [validateField],
  );

  /** Replaces values without validating (e.g. when the server record arrives). */
  const reset = useCallback((next: V) => {
    initialRef.current = next;
    setValues(next);
    setTexts({});
    setErrors({});
  }, []);

  /** Validates everything; the parsed output, or null with the errors shown. */
  const validate = useCallback((): Out | null => {
    const r = schema.safeParse(valuesRef.current);
    if (r.success) {
      setErrors({});
      return r.data as Out;
    }
    const next: FieldErrors<V> = {};
    for (const issue of r.error?.issues ?? []) {
      const key = String(issue.path[0] ?? '') as keyof V & string;
      if (key && !next[key]) next[key] = issue.message;
    }
    setErrors(next);
    return null;
  }, [schema]);

  /** The field's error as the user reads it: a `validation.*` key translated, a server text as it is. */
  const errorText = (field: keyof V & string): string | undefined => {
    const key = errors[field];
    return key ? t(key, { defaultValue: key }) : undefined;
  };

  /** Props for a text input: value, change/input/blur validation and its translated error. */
  const textProps = (field: keyof V & string) => ({
    error: errorText(field),
    name: field,
    value: String(values[field] ?? ''),
    onChange: (e: { currentTarget: { value: string } }) => setValue(field, e.currentTarget.value as V[typeof field]),
    onInput: (e: { currentTarget: { value: string } }) => validateField(field, e.currentTarget.value),
    // An untouched field is not flagged on blur: leaving an empty form (e.g. clicking a link under it)
    // must not shift the layout under the pointer. Submit still checks everything.
    onBlur: () => {
      if (valuesRef.current[field] !== initialRef.current[field]) validateField(field, valuesRef.current[field]);
    },
  });

  /**
   * Props for a NumberInput of a number field: the text as typed, validated as the number it stands for
   * (NaN when it is none: the rule says why); `nullable`: an empty field is null (no threshold). Nothing
   * is clamped or rounded behind the user's back (see `honestNumberProps`).
   */
  const numberProps = (field: keyof V & string, opts: { nullable?: boolean } = {}) => {
    const v = values[field];
    const shown = texts[field] ?? (typeof v === 'number' && !Number.isNaN(v) ? v : '');
    return {
      ...honestNumberProps(i18n.language),
      name: field,
      value: shown,
      error: errorText(field),
      onChange: (next: NumberText) => {
        setTexts((cur) => ({ ...cur, [field]: next }));
        setValue(field, (opts.nullable && next === '' ? null : numberOfText(next)) as V[typeof field]);
      },
      onBlur: () => {
        if (valuesRef.current[field] !== initialRef.current[field]) validateField(field, valuesRef.current[field]);
      },
    };
  };

  return { values, errors, errorText, setValue, setErrors, validate, validateField, reset, textProps, numberProps };
}
