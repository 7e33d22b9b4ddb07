import { Anchor, type CSSVariablesResolver, createTheme, type MantineColorsTuple } from '@mantine/core';
import { PRIMARY_COLOR } from '@phasewatch/shared';

/** Shades around the spec's primary orange (#ff7300 is shade 6, Mantine's default primary shade). */
const brand: MantineColorsTuple = [
  '#fff3e6',
  '#ffe4cc',
  '#ffc799',
  '#ffa863',
  '#ff8d36',
  '#ff7d19',
  PRIMARY_COLOR,
  '#e46600',
  '#cb5a00',
  '#b04c00',
];

export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  primaryShade: { light: 6, dark: 6 },
  // Dark text on the orange where white would be too faint.
  autoContrast: true,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  components: {
    // Text links in the brand colour but dark enough (light) or light enough (dark) to read: #ff7300 on
    // white is below the 4.5:1 text contrast.
    Anchor: Anchor.extend({
      styles: { root: { color: 'light-dark(var(--mantine-color-brand-9), var(--mantine-color-brand-4))' } },
    }),
  },
});

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** Contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `fg` at `alpha` over `bg`, as `#rrggbb`. */
function over(fg: string, bg: string, alpha: number): string {
  const mix = (i: number) => {
    const f = Number.parseInt(fg.slice(1 + 2 * i, 3 + 2 * i), 16);
    const g = Number.parseInt(bg.slice(1 + 2 * i, 3 + 2 * i), 16);
    return Math.round(f * alpha + g * (1 - alpha))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${mix(0)}${mix(1)}${mix(2)}`;
}

/** WCAG AA for normal text, which badges, alerts and secondary lines are. */
export const MIN_TEXT_CONTRAST = 4.5;

/** Surfaces text sits on in the light scheme: the body, striped table rows and hovered rows (gray-1). */
const LIGHT_SURFACES = ['#ffffff', '#f8f9fa', '#f1f3f5'];

/** `hex` darkened by mixing in `amount` (0–1) of black. */
function darken(hex: string, amount: number): string {
  return over('#000000', hex, amount);
}

/**
 * The lightest colour of a palette that reads at 4.5:1 as text on every light surface and on its own
 * light-variant background over them (the shade-6 tint at 10 %, as Mantine draws badges, alerts and light
 * buttons): shades 6 to 9, then shade 9 darkened in steps when even that is too light (teal on a striped row).
 */
export function readableColor(shades: readonly string[]): string {
  const tints = LIGHT_SURFACES.map((bg) => over(shades[6] ?? '#000000', bg, 0.1));
  const reads = (c: string) => [...LIGHT_SURFACES, ...tints].every((bg) => contrastRatio(c, bg) >= MIN_TEXT_CONTRAST);
  for (let i = 6; i < shades.length; i++) {
    const c = shades[i] ?? '#000000';
    if (reads(c)) return c;
  }
  const last = shades[shades.length - 1] ?? '#000000';
  for (let k = 1; k <= 10; k++) {
    const c = darken(last, k / 10);
    if (reads(c)) return c;
  }
  return '#000000';
}

/** Secondary ("dimmed") text: Mantine's gray-6 is 3.3:1 on white and dark-2 4.0:1 on the dark body. */
export const DIMMED = { light: '#5f666d', dark: '#a3a3a3' } as const;

/**
 * Colour variables that keep text at 4.5:1 on every page (axe's colour-contrast rule): in the light
 * scheme, the text of light and outline variants (badges such as ONLINE, alerts, subtle icons) and of
 * `c="<colour>"` uses each colour's readable colour instead of shade 6; dimmed text and errors are darker.
 * In the dark scheme Mantine's light-variant text (shade 1) already reads; dimmed text is lighter.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED.light,
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': 'var(--mantine-color-brand-9)',
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (!shades || shades.length < 10) continue;
    const shade = readableColor(shades);
    light[`--mantine-color-${name}-light-color`] = shade;
    light[`--mantine-color-${name}-outline`] = shade;
    light[`--mantine-color-${name}-text`] = shade;
  }
  return {
    variables: {},
    light,
    dark: { '--mantine-color-dimmed': DIMMED.dark, '--mantine-color-error': 'var(--mantine-color-red-5)' },
  };
};
