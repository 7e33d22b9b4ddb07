import { ERROR_MESSAGES, VALIDATION_MESSAGES } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { catalogueParts, catalogues } from './catalogues';
import { AREAS, browserLanguage, catalogueFiles, i18n, loadArea, loadCatalogue, setLanguage, storedLanguage, withArea } from './index';
import { mergeCatalogues } from './merge';

type Tree = { [k: string]: string | Tree };
function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out[`${prefix}${k}`] = v;
    else Object.assign(out, flatten(v, `${prefix}${k}.`));
  }
  return out;
}

describe('catalogues', () => {
  const en = flatten(catalogues.en);
  it.each(['pl', 'tr'] as const)('%s has exactly the English keys, none empty', (lng) => {
    const other = flatten(catalogues[lng]);
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of Object.entries(other)) expect(v.trim(), k).not.toBe('');
  });

  it('keeps each feature area in its own files: the same keys in every language, none defined in two files', () => {
    const files = Object.keys(catalogueParts);
    expect(catalogueFiles('en', files)[0]).toBe('./locales/en.json');
    for (const enFile of catalogueFiles('en', files)) {
      const keys = Object.keys(flatten(catalogueParts[enFile] as Tree)).sort();
      for (const lng of ['pl', 'tr']) {
        const other = enFile.replace(/en\.json$/, `${lng}.json`);
        expect(files, other).toContain(other);
        expect(Object.keys(flatten(catalogueParts[other] as Tree)).sort(), other).toEqual(keys);
      }
    }
    for (const lng of ['en', 'pl', 'tr']) {
      const seen = new Map<string, string>();
      for (const f of catalogueFiles(lng, files)) {
        for (const k of Object.keys(flatten(catalogueParts[f] as Tree))) {
          expect(seen.get(k), `${k} in ${f}`).toBeUndefined();
          seen.set(k, f);
        }
      }
    }
  });

  it('merges the files of a language key by key', () => {
    expect(mergeCatalogues([{ a: { b: 'x' } }, { a: { c: 'y' }, d: 'z' }])).toEqual({ a: { b: 'x', c: 'y' }, d: 'z' });
    expect(
      catalogueFiles('pl', ['./locales/tariffs/pl.json', './locales/pl.json', './locales/en.json', './locales/alarms/pl.json']),
    ).toEqual(['./locales/pl.json', './locales/alarms/pl.json', './locales/tariffs/pl.json']);
  });

  it('translates every validation key of the shared schemas and every error key the server answers', () => {
    for (const key of [...Object.keys(VALIDATION_MESSAGES), ...Object.keys(ERROR_MESSAGES)]) expect(en[key], key).toBeTruthy();
  });

  it('has no placeholder-era texts left: no placeholder.* keys, nothing saying a built feature is not available yet', () => {
    for (const lng of ['en', 'pl', 'tr'] as const) {
      const flat = flatten(catalogues[lng]);
      expect(
        Object.keys(flat).filter((k) => k.startsWith('placeholder.')),
        lng,
      ).toEqual([]);
      expect(flat['addDevice.noLocations'], lng).toBeUndefined();
      expect(flat['editDevice.noLocations'], lng).toBeUndefined();
    }
    expect(Object.values(en).filter((v) => /not available yet|being built/i.test(v))).toEqual([]);
  });

  it('glues no suffix to a number: no letters or apostrophe right after a placeholder (Turkish "%26\'i")', () => {
    for (const lng of ['en', 'pl', 'tr'] as const)
      for (const [k, v] of Object.entries(flatten(catalogues[lng]))) expect(v, `${lng} ${k}`).not.toMatch(/\}\}['’]?\p{L}/u);
  });

  it('keeps the spec texts exact', () => {
    expect(en['auth.tryAgain']).toBe('Try again!');
    expect(en['auth.loggedIn']).toBe('You have successfully logged in!');
    expect(en['errors.notFound']).toBe('Seems there is nothing here');
    expect(en['errors.server']).toBe('Internal server error. Please contact with server administrator.');
    expect(en['messages.unableToSave']).toBe('Unable to save data. Check form.');
    expect(en['messages.comparisonsSaveFailed']).toBe('Error saving comparations');
    expect(en['messages.dateRangeTooLong']).toBe('Data range is too long.');
  });
});

describe('browser language', () => {
  it('takes the first of the browser languages the app has, by its primary tag', () => {
    expect(browserLanguage(['pl-PL', 'en-US'])).toBe('pl');
    expect(browserLanguage(['de-DE', 'tr-TR', 'pl'])).toBe('tr');
    expect(browserLanguage(['EN-gb'])).toBe('en');
    expect(browserLanguage(['de', 'fr'])).toBeNull();
    expect(browserLanguage([])).toBeNull();
  });
});

describe('language', () => {
  it('loads the core of a catalogue on demand, and an area only when asked for, then on every switch', async () => {
    i18n.removeResourceBundle('tr', 'translation');
    expect(i18n.hasResourceBundle('tr', 'translation')).toBe(false);
    await loadCatalogue('tr');
    expect(i18n.getResourceBundle('tr', 'translation')).toEqual(catalogueParts['./locales/tr.json']);
    // A module that shows an area's texts waits for them too.
    const module = await withArea('analytics', async () => 'the module')();
    expect(module).toBe('the module');
    expect(i18n.getResourceBundle('en', 'translation')).toEqual(catalogues.en);
    // The area asked for comes with the core when the language is loaded again.
    i18n.removeResourceBundle('tr', 'translation');
    await loadCatalogue('tr');
    expect(flatten(i18n.getResourceBundle('tr', 'translation'))['analytics.pickDevice']).toBe(
      flatten(catalogues.tr)['analytics.pickDevice'],
    );
    expect(flatten(i18n.getResourceBundle('tr', 'translation'))['collectors.stepSource']).toBeUndefined();
    await loadArea('collectors', 'tr');
    await loadArea('integrations', 'tr');
    await loadArea('jobs', 'tr');
    await loadArea('notifications', 'tr');
    await loadArea('tariffs', 'tr');
    await loadArea('figures', 'tr');
    await loadArea('quality', 'tr');
    await loadArea('prosumer', 'tr');
    expect(i18n.getResourceBundle('tr', 'translation')).toEqual(catalogues.tr);
  });

  it('names every area folder in AREAS, and every area is loaded by some code of the app', () => {
    const folders = new Set(Object.keys(catalogueParts).flatMap((f) => /^\.\/locales\/([^/]+)\//.exec(f)?.[1] ?? []));
    expect([...folders].sort()).toEqual([...AREAS].sort());
    const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.test.*', '!../i18n/**'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const code = Object.values(sources).join('\n');
    for (const area of AREAS) expect(code, area).toMatch(new RegExp(`(withArea|loadArea)\\(\\[?'${area}'`));
  });

  it('defaults to English, falls back to Polish, and persists a switch', async () => {
    expect(storedLanguage()).toBe('en');
    expect(i18n.options.fallbackLng).toEqual(['pl']);
    await setLanguage('tr');
    expect(window.localStorage.getItem('phasewatch.language')).toBe('tr');
    expect(i18n.t('auth.tryAgain')).toBe('Tekrar deneyin!');
    expect(document.documentElement.lang).toBe('tr');
    expect(storedLanguage()).toBe('tr');
    await setLanguage('en');
  });
});
