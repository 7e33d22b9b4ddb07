/**
 * English texts of what the server writes itself: push payloads and mails, in the user's language
 * (`{{name}}` placeholders). The web app's texts are its own catalogues (apps/web/src/i18n).
 */
export const en = {
  'kind.voltage_drop': 'Voltage drop',
  'kind.voltage_rise': 'Voltage rise',
  'kind.limit_warning': 'Voltage warning level exceeded',
  'kind.limit_critical': 'Voltage critical level exceeded',
  'kind.consumption': 'Energy threshold exceeded',
  'kind.offline': 'Device offline',
  'kind.online': 'Device back online',
  'kind.weak_signal': 'Weak WiFi signal',
  'kind.quality_week_failed': 'Week outside EN 50160',
  'body.voltage_drop': '{{device}}: phase {{phase}} voltage fell to {{value}} V, below {{threshold}} V.',
  'body.voltage_rise': '{{device}}: phase {{phase}} voltage rose to {{value}} V, above {{threshold}} V.',
  'body.limit_warning': '{{device}}: phase {{phase}} voltage at {{value}} V, beyond the warning level ({{threshold}} V).',
  'body.limit_critical': '{{device}}: phase {{phase}} voltage at {{value}} V, beyond the critical level ({{threshold}} V).',
  'body.consumption': '{{device}}: {{value}} kWh in this billing period, above the threshold of {{threshold}} kWh.',
  'body.offline': '{{device}} stopped sending readings.',
  'body.online': '{{device}} is sending readings again.',
  'body.weak_signal': '{{device}}: weak WiFi signal ({{value}} dBm).',
  'body.quality_week_failed':
    '{{device}}: the supply did not meet EN 50160 last week; phase {{phase}} was outside 207–253 V for {{value}} % of the time (at most {{threshold}} % allowed).',
  'push.more': 'and {{count}} more',
  'mail.subject': '{{title}}: {{device}}',
  'mail.started': 'Since {{time}} ({{zone}})',
  'mail.open': 'See it in Phasewatch',
  'mail.footer':
    'You get these mails because e-mail notifications are on for {{device}}. To stop them, switch them off in the device’s settings.',
  'mail.settings': 'Device settings',
  'quality.week': 'Week {{from}} to {{to}} ({{zone}})',
  'quality.phase':
    'Phase {{phase}} failed: {{share}} % of 10-minute means outside 207–253 V (at most 5 %), {{n2}} outside 195.5–253 V (none allowed).',
  'quality.open': 'Open the week’s report',
  'reset.subject': 'Reset your Phasewatch password',
  'reset.greeting': 'Hello {{name}},',
  'reset.body': 'To choose a new password, open this link within an hour:',
  'reset.ignore': 'If you did not ask for this, ignore this mail: your password stays as it is.',
  'reset.button': 'Choose a new password',
} as const;

/** Every language has every key (the compiler checks pl and tr against this). */
export type Catalogue = { readonly [K in keyof typeof en]: string };
export type MessageKey = keyof typeof en;
