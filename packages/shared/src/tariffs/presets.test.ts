import { describe, expect, it } from 'vitest';
import fixture from './presets.fixture.json' with { type: 'json' };
import { presetUnconfirmed, resolveTariffRequest, TARIFF_PRESETS, tariffPreset } from './presets.js';
import { DAY_TYPES, GROUP_AREAS, tariffRequestSchema, zoneScheduleSchema } from './tariff.schema.js';

/**
 * The presets against §4 of shared/tariffs/tariff-schedules.md (its machine-readable presets, copied into
 * presets.fixture.json): every hour of every season and day type in the same area.
 */
type Interval = string[];
interface NotePreset {
  id: string;
  group: string;
  clock: string;
  zones: { area: number; schedule: Record<string, Interval[]> }[];
  seasons?: { name: string; from: string; to: string; zones: { area: number; schedule: Record<string, Interval[]> }[] }[];
}

/** The note's id (`pl-tauron-g12-2026`, `tr-epdk-uc-zamanli`) as ours (`tauron-g12`, `epdk-t3`). */
const ourId = (id: string) => (id === 'tr-epdk-uc-zamanli' ? 'epdk-t3' : id.replace(/^pl-/, '').replace(/-2026$/, ''));

/** The note's intervals as one area per hour. */
function hoursOf(zones: NotePreset['zones'], dayType: string): number[] {
  const out: number[] = Array.from({ length: 24 }, () => 0);
  for (const z of zones) {
    for (const [s = '', e = ''] of z.schedule[dayType] ?? []) {
      for (let h = Number(s.slice(0, 2)); h < Number(e.slice(0, 2)); h++) {
        expect(out[h], `hour ${h} of ${dayType} in two zones`).toBe(0);
        out[h] = z.area;
      }
    }
  }
  return out;
}

describe('tariff presets', () => {
  it('have ids <operator>-<group> in lower case, including the contract ones', () => {
    for (const p of TARIFF_PRESETS) expect(p.id).toBe(`${p.operator}-${p.group}`.toLowerCase());
    expect(new Set(TARIFF_PRESETS.map((p) => p.id)).size).toBe(TARIFF_PRESETS.length);
    for (const id of ['tauron-g12', 'tauron-g12w', 'pge-g12', 'pge-g12n', 'energa-g12r', 'tauron-g13', 'epdk-t3'])
      expect(tariffPreset(id)?.id).toBe(id);
  });

  it('are valid schedules using only their group’s areas', () => {
    for (const p of TARIFF_PRESETS) {
      expect(zoneScheduleSchema.safeParse(p.schedule).success, p.id).toBe(true);
      for (const s of p.schedule.seasons) for (const d of DAY_TYPES) for (const a of s.days[d]) expect(GROUP_AREAS[p.group]).toContain(a);
      const parsed = tariffRequestSchema.parse({
        name: p.id,
        group: p.group,
        presetId: p.id,
        prices: [{ validFrom: '2026-01-01', ...p.referencePrices }],
      });
      expect('tariff' in resolveTariffRequest(parsed), p.id).toBe(true);
    }
  });

  it('hold the hours of every preset of the note, hour by hour (G13s is left out: its rates differ by day type)', () => {
    let compared = 0;
    for (const n of fixture as NotePreset[]) {
      const id = ourId(n.id);
      if (id === 'tauron-g13s') continue;
      const p = tariffPreset(id);
      expect(p, id).toBeDefined();
      if (!p) continue;
      const noteSeasons = n.seasons ?? [{ name: 'all-year', from: '01-01', to: '12-31', zones: n.zones }];
      expect(p.schedule.seasons.map((s) => [s.from, s.to])).toEqual(noteSeasons.map((s) => [s.from, s.to]));
      noteSeasons.forEach((ns, i) => {
        for (const d of DAY_TYPES) {
          expect(p.schedule.seasons[i]?.days[d], `${id} ${ns.name} ${d}`).toEqual(hoursOf(ns.zones, d));
          compared++;
        }
      });
      // The note's clock: CET where the tariff says so, else unconfirmed (our `local`, labelled).
      if (n.clock === 'cet_fixed_unless_meter_adjusts') expect(p.clock, id).toBe('cet');
      if (n.clock === 'unconfirmed') expect(p.notes, id).toContain('clockUnconfirmed');
      if (n.clock === 'local') expect(p.clock, id).toBe('local');
    }
    expect(compared).toBeGreaterThanOrEqual(18 * 4);
  });

  it('label what the note leaves unconfirmed', () => {
    const unconfirmed = TARIFF_PRESETS.filter(presetUnconfirmed).map((p) => p.id);
    for (const id of ['enea-g12', 'enea-g12w', 'stoen-g12', 'stoen-g12w', 'stoen-g12as', 'tauron-g12', 'epdk-t3'])
      expect(unconfirmed).toContain(id);
    for (const id of ['energa-g12', 'pge-g12', 'pge-g12n', 'energa-g12r']) expect(unconfirmed).not.toContain(id);
    expect(tariffPreset('enea-g12')?.notes).toContain('eneaRule');
    for (const p of TARIFF_PRESETS.filter((x) => x.group === 'G12as')) expect(p.notes).toContain('g12asBaseline');
  });
});

describe('tariff requests', () => {
  const price = { validFrom: '2026-01-01', area1: 1, area2: 0.5, fixedMonthly: 10 };
  const base = { name: 'Home', group: 'G12', presetId: 'tauron-g12', prices: [price] };

  const issues = (body: unknown) => {
    const r = tariffRequestSchema.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('refuses negative, non-numeric and missing prices, duplicate validity dates, unknown groups', () => {
    expect(issues({ ...base, prices: [{ ...price, area1: -0.01 }] })).toEqual(['prices.0.area1: validation.min']);
    expect(issues({ ...base, prices: [{ ...price, area1: '1.2' }] })).toEqual(['prices.0.area1: validation.number']);
    expect(issues({ ...base, prices: [{ ...price, area2: Number.NaN }] })).toEqual(['prices.0.area2: validation.number']);
    expect(issues({ ...base, prices: [price, { ...price, area1: 2 }] })).toEqual(['prices.1.validFrom: tariffs.errors.duplicateValidFrom']);
    expect(issues({ ...base, prices: [] })).toEqual(['prices: tariffs.errors.priceList']);
    expect(issues({ ...base, group: 'G14' })[0]).toMatch(/^group: /);
    expect(issues({ ...base, prices: [{ ...price, validFrom: '2026-02-30' }] })).toEqual(['prices.0.validFrom: validation.date']);
  });

  it('refuses schedules that do not give each hour exactly one area, or use areas the group lacks', () => {
    const preset = tariffPreset('tauron-g12');
    if (!preset) throw new Error('preset');
    const days = preset.schedule.seasons[0]?.days;
    if (!days) throw new Error('days');
    const season = (d: object, from = '01-01', to = '12-31') => ({ name: 's', from, to, days: { ...days, ...d } });
    expect(issues({ ...base, schedule: { seasons: [season({ weekday: days.weekday.slice(0, 23) })] } })).toEqual([
      'schedule.seasons.0.days.weekday: tariffs.errors.hours24',
    ]);
    expect(issues({ ...base, schedule: { seasons: [season({ sunday: [...days.sunday, 1] })] } })).toEqual([
      'schedule.seasons.0.days.sunday: tariffs.errors.hours24',
    ]);
    expect(issues({ ...base, schedule: { seasons: [season({ saturday: days.saturday.map((_, h) => (h === 17 ? 3 : 1)) })] } })).toEqual([
      'schedule.seasons.0.days.saturday.17: tariffs.errors.areaNotInGroup',
    ]);
    // Seasons overlapping or leaving days out.
    expect(issues({ ...base, schedule: { seasons: [season({}, '01-01', '06-30'), season({}, '06-30', '12-31')] } })).toEqual([
      'schedule.seasons: tariffs.errors.seasonsCover',
    ]);
    expect(issues({ ...base, schedule: { seasons: [season({}, '04-01', '09-30')] } })).toEqual([
      'schedule.seasons: tariffs.errors.seasonsCover',
    ]);
    expect(issues({ ...base, schedule: { seasons: [season({}, '04-01', '09-30'), season({}, '10-01', '03-31')] } })).toEqual([]);
    expect(issues({ ...base, schedule: { seasons: [season({}, '02-30', '12-31')] } })).toEqual([
      'schedule.seasons.0.from: tariffs.errors.monthDay',
    ]);
  });

  it('fills the preset’s schedule, clock and holidays; refuses a preset of another group or prices it needs', () => {
    const ok = resolveTariffRequest(tariffRequestSchema.parse({ ...base, presetId: 'pge-g12n', group: 'G12n' }));
    expect('tariff' in ok && ok.tariff.clock).toBe('cet');
    expect('tariff' in ok && ok.tariff.holidayCalendar).toBe('PL');
    expect(resolveTariffRequest(tariffRequestSchema.parse({ ...base, presetId: 'pge-g12n' }))).toEqual({
      field: 'presetId',
      key: 'tariffs.errors.presetGroup',
    });
    expect(resolveTariffRequest(tariffRequestSchema.parse({ ...base, presetId: 'nope-g12' }))).toEqual({
      field: 'presetId',
      key: 'tariffs.errors.unknownPreset',
    });
    expect(resolveTariffRequest(tariffRequestSchema.parse({ ...base, presetId: null }))).toEqual({
      field: 'schedule',
      key: 'tariffs.errors.scheduleRequired',
    });
    expect(resolveTariffRequest(tariffRequestSchema.parse({ ...base, prices: [{ ...price, area2: null }] }))).toEqual({
      field: 'prices.0.area2',
      key: 'tariffs.errors.priceRequired',
    });
    // Prices are kept oldest first.
    const sorted = resolveTariffRequest(tariffRequestSchema.parse({ ...base, prices: [{ ...price, validFrom: '2026-03-01' }, price] }));
    expect('tariff' in sorted && sorted.tariff.prices.map((p) => p.validFrom)).toEqual(['2026-01-01', '2026-03-01']);
  });
});
