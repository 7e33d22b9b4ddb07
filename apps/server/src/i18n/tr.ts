import type { Catalogue } from './en.js';

export const tr: Catalogue = {
  'kind.voltage_drop': 'Gerilim düşüşü',
  'kind.voltage_rise': 'Gerilim yükselmesi',
  'kind.limit_warning': 'Gerilim uyarı seviyesi aşıldı',
  'kind.limit_critical': 'Gerilim kritik seviyesi aşıldı',
  'kind.consumption': 'Enerji eşiği aşıldı',
  'kind.offline': 'Cihaz çevrimdışı',
  'kind.online': 'Cihaz yeniden çevrimiçi',
  'kind.weak_signal': 'Zayıf WiFi sinyali',
  'kind.quality_week_failed': 'EN 50160 dışında bir hafta',
  'body.voltage_drop': '{{device}}: {{phase}}. faz gerilimi {{value}} V değerine düştü, {{threshold}} V altında.',
  'body.voltage_rise': '{{device}}: {{phase}}. faz gerilimi {{value}} V değerine yükseldi, {{threshold}} V üstünde.',
  'body.limit_warning': '{{device}}: {{phase}}. faz gerilimi {{value}} V, uyarı seviyesinin ({{threshold}} V) dışında.',
  'body.limit_critical': '{{device}}: {{phase}}. faz gerilimi {{value}} V, kritik seviyenin ({{threshold}} V) dışında.',
  'body.consumption': '{{device}}: bu fatura döneminde {{value}} kWh, {{threshold}} kWh eşiğinin üstünde.',
  'body.offline': '{{device}} okuma göndermeyi durdurdu.',
  'body.online': '{{device}} yeniden okuma gönderiyor.',
  'body.weak_signal': '{{device}}: zayıf WiFi sinyali ({{value}} dBm).',
  'body.quality_week_failed':
    '{{device}}: geçen hafta besleme EN 50160 standardını karşılamadı; {{phase}}. faz zamanın %{{value}} kadarında 207–253 V dışındaydı (en fazla %{{threshold}} izin verilir).',
  'push.more': 've {{count}} tane daha',
  'mail.subject': '{{title}}: {{device}}',
  'mail.started': '{{time}} itibarıyla ({{zone}})',
  'mail.open': 'Phasewatch’ta görüntüle',
  'mail.footer':
    'Bu e-postaları {{device}} için e-posta bildirimleri açık olduğu için alıyorsunuz. Durdurmak için cihaz ayarlarından kapatın.',
  'mail.settings': 'Cihaz ayarları',
  'quality.week': '{{from}} – {{to}} haftası ({{zone}})',
  'quality.phase':
    '{{phase}}. faz geçemedi: 10 dakikalık ortalamaların %{{share}} kadarı 207–253 V dışında (en fazla %5), {{n2}} tanesi 195,5–253 V dışında (hiç izin verilmez).',
  'quality.open': 'Haftanın raporunu aç',
  'reset.subject': 'Phasewatch parolanızı sıfırlayın',
  'reset.greeting': 'Merhaba {{name}},',
  'reset.body': 'Yeni bir parola belirlemek için bu bağlantıyı bir saat içinde açın:',
  'reset.ignore': 'Bunu siz istemediyseniz bu e-postayı yok sayın: parolanız değişmeden kalır.',
  'reset.button': 'Yeni parola belirle',
};
