import type { Catalogue } from './en.js';

export const pl: Catalogue = {
  'kind.voltage_drop': 'Spadek napięcia',
  'kind.voltage_rise': 'Wzrost napięcia',
  'kind.limit_warning': 'Przekroczony poziom ostrzegawczy napięcia',
  'kind.limit_critical': 'Przekroczony poziom krytyczny napięcia',
  'kind.consumption': 'Przekroczony próg energii',
  'kind.offline': 'Urządzenie offline',
  'kind.online': 'Urządzenie znów online',
  'kind.weak_signal': 'Słaby sygnał WiFi',
  'kind.quality_week_failed': 'Tydzień poza normą EN 50160',
  'body.voltage_drop': '{{device}}: napięcie fazy {{phase}} spadło do {{value}} V, poniżej {{threshold}} V.',
  'body.voltage_rise': '{{device}}: napięcie fazy {{phase}} wzrosło do {{value}} V, powyżej {{threshold}} V.',
  'body.limit_warning': '{{device}}: napięcie fazy {{phase}} wynosi {{value}} V, poza poziomem ostrzegawczym ({{threshold}} V).',
  'body.limit_critical': '{{device}}: napięcie fazy {{phase}} wynosi {{value}} V, poza poziomem krytycznym ({{threshold}} V).',
  'body.consumption': '{{device}}: {{value}} kWh w tym okresie rozliczeniowym, powyżej progu {{threshold}} kWh.',
  'body.offline': '{{device}} przestało przesyłać odczyty.',
  'body.online': '{{device}} znów przesyła odczyty.',
  'body.weak_signal': '{{device}}: słaby sygnał WiFi ({{value}} dBm).',
  'body.quality_week_failed':
    '{{device}}: zasilanie nie spełniło normy EN 50160 w zeszłym tygodniu; napięcie fazy {{phase}} było poza 207–253 V przez {{value}} % czasu (dopuszczalne najwyżej {{threshold}} %).',
  'push.more': 'i {{count}} więcej',
  'mail.subject': '{{title}}: {{device}}',
  'mail.started': 'Od {{time}} ({{zone}})',
  'mail.open': 'Zobacz w Phasewatch',
  'mail.footer':
    'Otrzymujesz te wiadomości, ponieważ powiadomienia e-mail są włączone dla {{device}}. Aby je zatrzymać, wyłącz je w ustawieniach urządzenia.',
  'mail.settings': 'Ustawienia urządzenia',
  'quality.week': 'Tydzień od {{from}} do {{to}} ({{zone}})',
  'quality.phase':
    'Faza {{phase}} nie spełnia normy: {{share}} % średnich 10-minutowych poza 207–253 V (najwyżej 5 %), {{n2}} poza 195,5–253 V (niedopuszczalne).',
  'quality.open': 'Otwórz raport tygodnia',
  'reset.subject': 'Zresetuj hasło do Phasewatch',
  'reset.greeting': 'Dzień dobry {{name}},',
  'reset.body': 'Aby ustawić nowe hasło, otwórz ten link w ciągu godziny:',
  'reset.ignore': 'Jeśli to nie Ty prosiłeś o zmianę, zignoruj tę wiadomość: hasło pozostanie bez zmian.',
  'reset.button': 'Ustaw nowe hasło',
};
