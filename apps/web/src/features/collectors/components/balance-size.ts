/**
 * The balanced-energy card's least height (title, the two-row table, the note): its placeholder while the
 * card's code and data load holds the same room, so nothing below it moves when it arrives.
 * Measured in Chromium: 236 px at 1366 px wide, 309 px at 390 px (the period choice goes under the title).
 */
export const BALANCE_CARD_MIN_HEIGHT = { base: 310, xs: 236 };
