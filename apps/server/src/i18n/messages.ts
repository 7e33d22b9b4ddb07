import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@phasewatch/shared';
import { type Catalogue, en, type MessageKey } from './en.js';
import { pl } from './pl.js';
import { tr } from './tr.js';

/**
 * The server's own catalogue: what leaves the server as text (push payloads, mails) in the user's
 * language. Kept in the server, not in packages/shared: only the server renders these texts, the web
 * app's bundles stay without them, and the Catalogue type makes the compiler check that pl and tr have
 * every English key.
 */
const CATALOGUES: Record<Language, Catalogue> = { en, pl, tr };

/** A supported language, or the default for anything else (a stored value the profile no longer offers). */
export function languageOf(value: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : DEFAULT_LANGUAGE;
}

/** The text of `key` in `lng` with `{{name}}` placeholders filled (a missing value stays visible as its name). */
export function t(lng: Language, key: MessageKey, vars: Record<string, string | number> = {}): string {
  return CATALOGUES[lng][key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => (name in vars ? String(vars[name]) : `{{${name}}}`));
}

/** Every catalogue by language (tests compare them). */
export const catalogues: Readonly<Record<Language, Catalogue>> = CATALOGUES;
export type { MessageKey };
