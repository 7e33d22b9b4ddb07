import { catalogueFiles } from './index';
import { type Catalogue, mergeCatalogues } from './merge';

/** Every file of every language, read at once (tests; the app loads them language by language: see index.ts). */
export const catalogueParts = import.meta.glob<Catalogue>('./locales/**/*.json', { import: 'default', eager: true });

function language(lng: string): Catalogue {
  return mergeCatalogues(catalogueFiles(lng, Object.keys(catalogueParts)).map((f) => catalogueParts[f] as Catalogue));
}

/** Every catalogue at once, merged as the app merges them. */
export const catalogues = { en: language('en'), pl: language('pl'), tr: language('tr') } as const;
