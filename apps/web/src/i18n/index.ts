import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@phasewatch/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { readStorage, writeStorage } from '@/lib/storage';
import type en from './locales/en.json';

/** The catalogues load on demand, one chunk each: the app's first chunk carries none of them. */
const loaders = import.meta.glob<typeof en>('./locales/*.json', { import: 'default' });

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
  const load = loaders[`./locales/${lng}.json`];
  if (!load) return;
  i18n.addResourceBundle(lng, 'translation', await load());
}

/** Switches the interface language and keeps it in local storage. */
export async function setLanguage(lng: Language): Promise<void> {
  await loadCatalogue(lng);
  writeStorage(STORAGE_KEYS.language, lng);
  await i18n.changeLanguage(lng);
}
