import { useMediaQuery } from '@mantine/hooks';

/** The project's phone breakpoint: below 576 px (Mantine's `xs`, 36em), the layout the spec calls mobile. */
const PHONE_QUERY = '(max-width: 35.99em)';

/** Whether the screen is a phone's (below 576 px), known on the first render so a layout does not flip. */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}
