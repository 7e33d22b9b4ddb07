import { describe, expect, it } from 'vitest';
import { cachedZoneFormatters, localParts } from '../energy/zoned-time.js';
import { canonicalTimezone } from '../geo/timezone.js';
import { BoundedMap } from './bounded-map.js';

describe('BoundedMap', () => {
  it('drops the oldest entry beyond its size and keeps updates in place', () => {
    const m = new BoundedMap<string, number>(3);
    m.set('a', 1).set('b', 2).set('c', 3);
    m.set('a', 10);
    expect([...m.entries()]).toEqual([
      ['a', 10],
      ['b', 2],
      ['c', 3],
    ]);
    m.set('d', 4);
    expect([...m.keys()]).toEqual(['b', 'c', 'd']);
    expect(m.size).toBe(3);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});

describe('timezone spellings', () => {
  it('name one canonical zone however they are typed', () => {
    expect(canonicalTimezone('AMERIca/ARGEnTiNA/ComoDRIvadaViA')).toBe(canonicalTimezone('America/Argentina/ComodRivadavia'));
    expect(canonicalTimezone('europe/WARSAW')).toBe('Europe/Warsaw');
    expect(canonicalTimezone('Mars/Olympus')).toBeNull();
    expect(canonicalTimezone('Europe/Warsaw\u0000')).toBeNull();
  });

  it('keep the zone formatter cache bounded (it kept one formatter, ~40 KB of ICU memory, per spelling)', () => {
    // Every case spelling of one zone is a different key to a plain Map: 2,000 of them here (twice the bound).
    const base = 'america/argentina/comodrivadavia';
    const spellings = new Set<string>();
    for (let i = 0; spellings.size < 2000; i++) {
      spellings.add([...base].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join(''));
    }
    for (const tz of spellings) localParts(0, tz);
    expect(cachedZoneFormatters()).toBeLessThanOrEqual(1024);
    // Each formatter costs ~1 ms of ICU work: a loaded machine needs more than the default 5 s.
  }, 60_000);
});
