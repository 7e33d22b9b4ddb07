import type { ApiFieldError } from '@phasewatch/shared';
import { ApiError } from './api-client';

/** What a field error shows: its message key when the server sent one (translated), else its text. */
export function fieldErrorText(e: ApiFieldError): string {
  return e.key ?? e.message;
}

/**
 * The messages of a failed call, each an i18n key (`errors.*`, `validation.*`) or a text shown as it is:
 * the field errors of a 4xx answer, else the error's own key (server error, timeout), else the generic text.
 */
export function errorTexts(error: unknown): string[] {
  if (!(error instanceof ApiError)) return ['errors.generic'];
  if (error.errors.length > 0) return error.errors.map(fieldErrorText);
  return [error.message || 'errors.generic'];
}

/** Field errors of a 4xx answer for the form's fields, as the form shows them (keys translated there). */
export function fieldErrorsOf<V extends Record<string, unknown>>(error: unknown, values: V): Partial<Record<keyof V & string, string>> {
  const out: Partial<Record<keyof V & string, string>> = {};
  if (!(error instanceof ApiError) || error.kind !== 'http') return out;
  for (const fe of error.errors) if (fe.field && fe.field in values) out[fe.field as keyof V & string] = fieldErrorText(fe);
  return out;
}
