import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, DIMMED, MIN_TEXT_CONTRAST, readableColor, theme } from './theme';

describe('theme contrast', () => {
  const merged = { ...DEFAULT_THEME, colors: { ...DEFAULT_THEME.colors, ...theme.colors } } as typeof DEFAULT_THEME;

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    // Mantine's defaults that axe flagged: gray-6 secondary text and teal-6 on its tint.
    expect(contrastRatio('#868e96', '#ffffff')).toBeLessThan(MIN_TEXT_CONTRAST);
  });

  it('picks a readable colour for every palette, darker than the shade 6 that failed for teal (ONLINE) and orange', () => {
    const teal = merged.colors.teal;
    const online = readableColor(teal);
    expect(online).not.toBe(teal[6]);
    // On white, on a striped or hovered row (gray-1), and on the badge's own tint over that row.
    for (const bg of ['#ffffff', '#f1f3f5', '#dbede9']) expect(contrastRatio(online, bg)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(readableColor(merged.colors.brand ?? [])).not.toBe(merged.colors.brand?.[6]);
  });

  it('sets the light-variant text of every colour, dimmed and error text to readable values', () => {
    const vars = cssVariablesResolver(merged);
    expect(vars.light['--mantine-color-teal-light-color']).toBe(readableColor(merged.colors.teal));
    expect(vars.light['--mantine-color-brand-light-color']).toBe(readableColor(merged.colors.brand ?? []));
    for (const name of Object.keys(merged.colors)) expect(vars.light[`--mantine-color-${name}-light-color`], name).toBeDefined();
    expect(contrastRatio(DIMMED.light, '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    // Striped rows and hovered surfaces (gray-0, gray-1) too.
    expect(contrastRatio(DIMMED.light, '#f1f3f5')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    // The dark body (dark-7) and dark cards (dark-6).
    expect(contrastRatio(DIMMED.dark, '#242424')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(DIMMED.dark, '#2e2e2e')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });
});
