/** Business constants of the product spec (section 9), shared by server and web. */

/** Timezone used when a user has none or their country has none. */
export const FALLBACK_TIMEZONE = 'Europe/Warsaw';
/** Nominal grid voltage; limit values are percentages of it. */
export const NOMINAL_VOLTAGE = 230;
/** App version when none is configured; sent in the X-App-Version header. */
export const DEFAULT_APP_VERSION = '0.1.0';
export const APP_VERSION_HEADER = 'X-App-Version';

export const PASSWORD_MIN_LENGTH = 4;
export const STRENGTH_METER_MIN_LENGTH = 8;
export const SEARCH_MIN_LENGTH = 2;
export const COMPARISON_NAME_MIN = 3;
export const COMPARISON_NAME_MAX = 30;

export const LIMIT_WARNING_MIN = 0;
export const LIMIT_WARNING_MAX = 50;
export const LIMIT_CRITICAL_MIN = 0;
export const LIMIT_CRITICAL_MAX = 100;

/** Notifications are muted at night when the user asks: 22:00–07:00 local time. */
export const NIGHT_START_HOUR = 22;
export const NIGHT_END_HOUR = 7;

export const MOBILE_BREAKPOINT_PX = 576;
export const REALTIME_KEEP_ALIVE_MS = 10_000;
export const REALTIME_SERVER_TIMEOUT_MS = 300_000;
export const REALTIME_RECONNECT_DELAYS_MS = [0, 2000, 10_000, 30_000] as const;
export const DOWNLOAD_TIMEOUT_MS = 7_200_000;
export const SCRIPT_CHUNK_TIMEOUT_MS = 120_000;
export const PRIMARY_COLOR = '#ff7300';

/** Languages the interface is translated into. */
export const LANGUAGES = ['en', 'pl', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** The message catalogue default (spec section 1): missing keys fall back to Polish. */
export const FALLBACK_LANGUAGE: Language = 'pl';

/** Server date format: UTC `YYYY-MM-DD HH:mm:ss`. */
export const SERVER_DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Browsers (push subscriptions) one user may have; each alarm is pushed to every one of them. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 20;
