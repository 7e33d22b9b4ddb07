import en from './locales/en.json';
import pl from './locales/pl.json';
import tr from './locales/tr.json';

/** Every catalogue at once, for tests (the app loads them one by one: see index.ts). */
export const catalogues = { en, pl, tr } as const;
