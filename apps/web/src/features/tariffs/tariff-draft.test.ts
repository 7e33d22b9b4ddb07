import { TARIFF_PRESETS, type TariffPresetInfo } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { addPrice, applyPreset, changeGroup, draftIssues, newDraft, requestOf } from './tariff-draft';

const preset = (id: string) => {
  const p = TARIFF_PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(id);
  return { ...p, unconfirmed: false, zoneNames: { ...p.zoneNames } } as TariffPresetInfo;
};

describe('tariff draft', () => {
  it('starts from a preset with one empty price list, which the form must fill in', () => {
    const d = newDraft(preset('pge-g12'), '2026-11-01');
    expect([d.name, d.group, d.presetId, d.clock, d.holidayCalendar, d.currency]).toEqual([
      'PGE G12',
      'G12',
      'pge-g12',
      'cet',
      'PL',
      'PLN',
    ]);
    expect(draftIssues(d)).toEqual({
      'prices.0.area1': 'validation.number',
      'prices.0.area2': 'validation.number',
      'prices.0.fixedMonthly': 'validation.number',
    });
    const filled = { ...d, prices: [{ ...(d.prices[0] as (typeof d.prices)[number]), area1: 1.2, area2: 0.6, fixedMonthly: 30 }] };
    expect(draftIssues(filled)).toEqual({});
    // Areas the group does not bill go as null.
    expect(requestOf(filled).prices[0]).toEqual({ validFrom: '2026-11-01', area1: 1.2, area2: 0.6, area3: null, fixedMonthly: 30 });
  });

  it('moves hours of areas a new group lacks into its first area and lets the preset go', () => {
    const d = changeGroup(newDraft(preset('tauron-g13'), '2026-01-01'), 'G12');
    expect(d.presetId).toBeNull();
    const all = d.schedule.seasons.flatMap((s) => Object.values(s.days).flat());
    expect(new Set(all)).toEqual(new Set([1, 2]));
    // A G13 afternoon peak (area 3) became day (area 1); the night stays night.
    expect(d.schedule.seasons[0]?.days.weekday.slice(16, 23)).toEqual([2, 2, 2, 1, 1, 1, 2]);
    expect(new Set(changeGroup(d, 'G11').schedule.seasons.flatMap((s) => Object.values(s.days).flat()))).toEqual(new Set([1]));
  });

  it('applies another preset, keeping a name the user typed', () => {
    const typed = { ...newDraft(preset('tauron-g12'), '2026-01-01'), name: 'My contract' };
    const p = applyPreset(typed, preset('energa-g12r'), TARIFF_PRESETS as unknown as TariffPresetInfo[]);
    expect([p.name, p.group, p.clock]).toEqual(['My contract', 'G12r', 'cet']);
    const named = applyPreset(
      newDraft(preset('tauron-g12'), '2026-01-01'),
      preset('pge-g12n'),
      TARIFF_PRESETS as unknown as TariffPresetInfo[],
    );
    expect(named.name).toBe('PGE G12n');
  });

  it('adds a price list after the latest, its prices copied; duplicate dates are flagged', () => {
    const d = newDraft(preset('tauron-g12'), '2026-01-01');
    const base = { ...d, prices: [{ ...(d.prices[0] as (typeof d.prices)[number]), area1: 1, area2: 0.5, fixedMonthly: 20 }] };
    const more = addPrice(base, '2026-07-01');
    expect(more.prices.map((p) => [p.validFrom, p.area1])).toEqual([
      ['2026-01-01', 1],
      ['2026-07-01', 1],
    ]);
    // Never a date another list has: on the day the latest list starts, the new one starts the day after.
    expect(addPrice(base, '2026-01-01').prices.map((p) => p.validFrom)).toEqual(['2026-01-01', '2026-01-02']);
    const dup = { ...more, prices: more.prices.map((p) => ({ ...p, validFrom: '2026-01-01' })) };
    expect(draftIssues(dup)).toEqual({ 'prices.1.validFrom': 'tariffs.errors.duplicateValidFrom' });
  });
});
