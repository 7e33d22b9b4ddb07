import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@phasewatch/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '@/config/storage-keys';
import { readStorage, writeStorage } from '@/lib/storage';
import type { Catalogue } from './merge';

/**
 * The catalogues load on demand: the app's first chunk carries none of them. A language is its core file
 * (`locales/<lng>.json`, what every screen and the first paint need) plus one file per feature area
 * (`locales/<area>/<lng>.json`, keys under the area's own namespace). The core loads before the first
 * render; an area loads with the code that shows its texts (`withArea`), so the dashboard's first load
 * carries no feature's texts, and features add theirs without touching each other's files.
 */
const loaders = import.meta.glob<Catalogue>('./locales/**/*.json', { import: 'default' });

/** The files of one language: the core first, then the feature areas in path order. */
export function catalogueFiles(lng: string, paths: readonly string[] = Object.keys(loaders)): string[] {
  return paths
    .filter((p) => p === `./locales/${lng}.json` || p.endsWith(`/${lng}.json`))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** The feature areas: a folder of `locales/` each. */
export const AREAS = [
  'analytics',
  'collectors',
  'figures',
  'integrations',
  'jobs',
  'notifications',
  'prosumer',
  'quality',
  'tariffs',
] as const;
export type Area = (typeof AREAS)[number];

export function isLanguage(value: string | null | undefined): value is Language {
  return !!value && (LANGUAGES as readonly string[]).includes(value);
}

/** The first of the browser's languages the app has (`pl-PL` is Polish), or null. */
export function browserLanguage(
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Language | null {
  for (const tag of languages) {
    const primary = tag?.split('-')[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/**
 * Language from local storage (the user's choice, or their profile's after sign-in); before any choice the
 * browser's language (sign-in and register follow it), default English (spec section 1).
 */
export function storedLanguage(): Language {
  const stored = readStorage(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : (browserLanguage() ?? DEFAULT_LANGUAGE);
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

/** Areas some code asked for: a language switch loads them for the new language before it switches. */
const wantedAreas = new Set<Area>();
const areaLoads = new Map<string, Promise<void>>();

/** The core catalogue of a language, once: an area's texts are only ever added after it. */
async function loadCore(lng: string): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  // Whatever was loaded for this language before is gone with its bundle.
  for (const key of areaLoads.keys()) if (key.startsWith(`${lng}/`)) areaLoads.delete(key);
  const load = loaders[`./locales/${lng}.json`];
  if (load) i18n.addResourceBundle(lng, 'translation', await load(), true, false);
}

/** Loads a language's core catalogue and the areas asked for so far; the app waits for the stored language's before its first render. */
export async function loadCatalogue(lng: Language): Promise<void> {
  await loadCore(lng);
  await Promise.all([...wantedAreas].map((a) => loadArea(a, lng)));
}

/** Loads a feature area's texts for a language (the current one by default), once; they join its catalogue. */
export function loadArea(area: Area, lng: string = i18n.language): Promise<void> {
  wantedAreas.add(area);
  const key = `${lng}/${area}`;
  let loading = areaLoads.get(key);
  if (!loading) {
    const load = loaders[`./locales/${area}/${lng}.json`];
    loading = loadCore(lng).then(async () => {
      if (load) i18n.addResourceBundle(lng, 'translation', await load(), true, false);
    });
    // A failed load (a network hiccup) is tried again by the next caller.
    loading.catch(() => areaLoads.delete(key));
    areaLoads.set(key, loading);
  }
  return loading;
}

/** A dynamic import that resolves once the module and the texts of its areas are both there. */
export function withArea<T>(areas: Area | readonly Area[], load: () => Promise<T>): () => Promise<T> {
  const list = typeof areas === 'string' ? [areas] : areas;
  return async () => {
    const [module] = await Promise.all([load(), ...list.map((a) => loadArea(a))]);
    return module;
  };
}

/** Switches the interface language and keeps it in local storage. */
export async function setLanguage(lng: Language): Promise<void> {
  await loadCatalogue(lng);
  writeStorage(STORAGE_KEYS.language, lng);
  await i18n.changeLanguage(lng);
}
