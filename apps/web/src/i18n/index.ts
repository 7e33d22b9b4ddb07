import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@phasewatch/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { readStorage, writeStorage } from '@/lib/storage';
import { type Catalogue, mergeCatalogues } from './merge';

/**
 * The catalogues load on demand: the app's first chunk carries none of them. A language is its core file
 * (`locales/<lng>.json`) plus one file per feature area (`locales/<area>/<lng>.json`, keys under the area's
 * own namespace), so features add their texts without touching each other's files.
 */
const loaders = import.meta.glob<Catalogue>('./locales/**/*.json', { import: 'default' });

/** The files of one language: the core first, then the feature areas in path order. */
export function catalogueFiles(lng: string, paths: readonly string[] = Object.keys(loaders)): string[] {
  return paths
    .filter((p) => p === `./locales/${lng}.json` || p.endsWith(`/${lng}.json`))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

export function isLanguage(value: string | null | undefined): value is Language {
  return !!value && (LANGUAGES as readonly string[]).includes(value);
}

/** Language from local storage, default English (spec section 1). */
export function storedLanguage(): Language {
  const stored = readStorage(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: storedLanguage(),
  // The spec's message catalogue default is Polish: a key missing in a catalogue falls back to it.
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

function applyDocumentLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
applyDocumentLanguage(i18n.language);
i18n.on('languageChanged', applyDocumentLanguage);

/** Loads a language's catalogue (once); the app waits for the stored language's before its first render. */
export async function loadCatalogue(lng: Language): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const files = catalogueFiles(lng);
  if (files.length === 0) return;
  const parts = await Promise.all(files.map((f) => (loaders[f] as () => Promise<Catalogue>)()));
  i18n.addResourceBundle(lng, 'translation', mergeCatalogues(parts));
}

/** Switches the interface language and keeps it in local storage. */
export async function setLanguage(lng: Language): Promise<void> {
  await loadCatalogue(lng);
  writeStorage(STORAGE_KEYS.language, lng);
  await i18n.changeLanguage(lng);
}
