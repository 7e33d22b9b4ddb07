import { Anchor, createTheme, type MantineColorsTuple } from '@mantine/core';
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
