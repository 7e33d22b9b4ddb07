import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { catalogues, languageOf, t } from './messages.js';

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('server catalogue', () => {
  it.each(['pl', 'tr'] as const)('%s has every English key with the same placeholders, none empty', (lng) => {
    const other = catalogues[lng];
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const translated = other[key as keyof typeof en];
      expect(translated.trim(), key).not.toBe('');
      expect(placeholders(translated), key).toEqual(placeholders(text));
    }
  });

  it('fills placeholders and falls back to English for an unknown language', () => {
    expect(t('en', 'body.weak_signal', { device: 'Meter', value: -80 })).toBe('Meter: weak WiFi signal (-80 dBm).');
    expect(t('pl', 'kind.offline')).toBe('Urządzenie offline');
    expect(languageOf('de')).toBe('en');
    expect(languageOf('tr')).toBe('tr');
  });
});
