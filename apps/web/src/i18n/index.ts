import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@phasewatch/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { readStorage, writeStorage } from '@/lib/storage';
import en from './locales/en.json';
import pl from './locales/pl.json';
import tr from './locales/tr.json';

export const catalogues = { en, pl, tr } as const;

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
  resources: { en: { translation: en }, pl: { translation: pl }, tr: { translation: tr } },
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

/** Switches the interface language and keeps it in local storage. */
export async function setLanguage(lng: Language): Promise<void> {
  writeStorage(STORAGE_KEYS.language, lng);
  await i18n.changeLanguage(lng);
}
