import type { Language, ParameterInfo } from '@phasewatch/shared';

/** The PDF report's texts in the interface's languages (the web's catalogues are not the server's to load). */
export interface PdfTexts {
  title: string;
  device: string;
  model: string;
  location: string;
  noLocation: string;
  period: string;
  interval: string;
  intervals: Record<string, string>;
  timezone: string;
  created: string;
  energy: string;
  energyUsed: string;
  energyProduced: string;
  noEnergy: string;
  costTitle: string;
  zone: string;
  cost: string;
  total: string;
  costNote: string;
  summary: string;
  parameter: string;
  unit: string;
  minimum: string;
  maximum: string;
  average: string;
  sum: string;
  chartEnergy: string;
  chartValues: string;
  table: string;
  time: string;
  noData: string;
  page: string;
  estimatedNote: string;
  groups: Record<ParameterInfo['group'], string>;
  phase: string;
  stats: { ave: string; max: string; min: string };
  /** The operators' zone names of the tariff presets (Polish or Turkish words) in this language. */
  zoneNames: Record<string, string>;
}

const en: PdfTexts = {
  title: 'Energy report',
  device: 'Device',
  model: 'Model',
  location: 'Location',
  noLocation: 'not assigned',
  period: 'Period',
  interval: 'Interval',
  intervals: { raw: 'readings as sent', '15m': '15 minutes', '30m': '30 minutes', '1h': '1 hour', '24h': '1 day' },
  timezone: 'Time zone',
  created: 'Created',
  energy: 'Energy in the period',
  energyUsed: 'Energy used',
  energyProduced: 'Energy produced',
  noEnergy: 'The device sent no energy counter in this period.',
  costTitle: 'Cost per tariff zone',
  zone: 'Zone',
  cost: 'Cost',
  total: 'Total',
  costNote: 'Tariff figures are simulated and are not a basis for claims.',
  summary: 'Minimum, maximum and average',
  parameter: 'Parameter',
  unit: 'Unit',
  minimum: 'Minimum',
  maximum: 'Maximum',
  average: 'Average',
  sum: 'Total',
  chartEnergy: 'Energy per interval',
  chartValues: 'Average per interval',
  table: 'Readings',
  time: 'Time',
  noData: 'No readings in this period.',
  page: 'Page {page} of {pages}',
  estimatedNote: 'Energy of a span with a gap in the readings is spread evenly over the gap.',
  groups: {
    power: 'Power',
    voltage: 'Voltage',
    current: 'Current',
    energy: 'Active energy',
    reactiveEnergy: 'Reactive energy',
    powerFactor: 'Power factor',
    frequency: 'Frequency',
    dc: 'DC',
    thermostat: 'Thermostat',
    status: 'Status',
  },
  phase: 'L{n}',
  stats: { ave: 'average', max: 'maximum', min: 'minimum' },
  zoneNames: {
    Dzienna: 'day',
    Nocna: 'night',
    Szczytowa: 'peak',
    Pozaszczytowa: 'off-peak',
    Całodobowa: 'all day',
    'Szczyt przedpołudniowy': 'morning peak',
    'Pozostałe godziny doby': 'rest of the day',
    'Szczyt popołudniowy': 'afternoon peak',
    'Tek zamanlı': 'single-time',
    'Gündüz (T1)': 'day (T1)',
    'Gece (T3)': 'night (T3)',
    'Puant (T2)': 'peak (T2)',
  },
};

const pl: PdfTexts = {
  title: 'Raport zużycia energii',
  device: 'Urządzenie',
  model: 'Model',
  location: 'Lokalizacja',
  noLocation: 'nie przypisano',
  period: 'Okres',
  interval: 'Interwał',
  intervals: { raw: 'odczyty jak wysłane', '15m': '15 minut', '30m': '30 minut', '1h': '1 godzina', '24h': '1 dzień' },
  timezone: 'Strefa czasowa',
  created: 'Utworzono',
  energy: 'Energia w okresie',
  energyUsed: 'Zużyta energia',
  energyProduced: 'Wyprodukowana energia',
  noEnergy: 'Urządzenie nie wysłało w tym okresie licznika energii.',
  costTitle: 'Koszt według stref taryfowych',
  zone: 'Strefa',
  cost: 'Koszt',
  total: 'Razem',
  costNote: 'Dane taryfowe są symulowane i nie stanowią podstawy do roszczeń.',
  summary: 'Minimum, maksimum i średnia',
  parameter: 'Parametr',
  unit: 'Jednostka',
  minimum: 'Minimum',
  maximum: 'Maksimum',
  average: 'Średnia',
  sum: 'Suma',
  chartEnergy: 'Energia w interwałach',
  chartValues: 'Średnia w interwałach',
  table: 'Odczyty',
  time: 'Czas',
  noData: 'Brak odczytów w tym okresie.',
  page: 'Strona {page} z {pages}',
  estimatedNote: 'Energia okresu z przerwą w odczytach jest rozłożona równo na czas przerwy.',
  groups: {
    power: 'Moc',
    voltage: 'Napięcie',
    current: 'Prąd',
    energy: 'Energia czynna',
    reactiveEnergy: 'Energia bierna',
    powerFactor: 'Współczynnik mocy',
    frequency: 'Częstotliwość',
    dc: 'Prąd stały',
    thermostat: 'Termostat',
    status: 'Stan',
  },
  phase: 'L{n}',
  stats: { ave: 'średnia', max: 'maksimum', min: 'minimum' },
  zoneNames: {
    'Tek zamanlı': 'jednostrefowa',
    'Gündüz (T1)': 'dzienna (T1)',
    'Gece (T3)': 'nocna (T3)',
    'Puant (T2)': 'szczytowa (T2)',
  },
};

const tr: PdfTexts = {
  title: 'Enerji raporu',
  device: 'Cihaz',
  model: 'Model',
  location: 'Konum',
  noLocation: 'atanmadı',
  period: 'Dönem',
  interval: 'Aralık',
  intervals: { raw: 'gönderildiği gibi okumalar', '15m': '15 dakika', '30m': '30 dakika', '1h': '1 saat', '24h': '1 gün' },
  timezone: 'Saat dilimi',
  created: 'Oluşturulma',
  energy: 'Dönemdeki enerji',
  energyUsed: 'Tüketilen enerji',
  energyProduced: 'Üretilen enerji',
  noEnergy: 'Cihaz bu dönemde enerji sayacı göndermedi.',
  costTitle: 'Tarife dilimine göre maliyet',
  zone: 'Dilim',
  cost: 'Maliyet',
  total: 'Toplam',
  costNote: 'Tarife rakamları simüledir ve hak talebi için dayanak değildir.',
  summary: 'En düşük, en yüksek ve ortalama',
  parameter: 'Parametre',
  unit: 'Birim',
  minimum: 'En düşük',
  maximum: 'En yüksek',
  average: 'Ortalama',
  sum: 'Toplam',
  chartEnergy: 'Aralık başına enerji',
  chartValues: 'Aralık başına ortalama',
  table: 'Okumalar',
  time: 'Zaman',
  noData: 'Bu dönemde okuma yok.',
  page: 'Sayfa {page} / {pages}',
  estimatedNote: 'Okumalarda boşluk olan bir dönemin enerjisi boşluğa eşit olarak dağıtılır.',
  groups: {
    power: 'Güç',
    voltage: 'Gerilim',
    current: 'Akım',
    energy: 'Aktif enerji',
    reactiveEnergy: 'Reaktif enerji',
    powerFactor: 'Güç faktörü',
    frequency: 'Frekans',
    dc: 'Doğru akım',
    thermostat: 'Termostat',
    status: 'Durum',
  },
  phase: 'L{n}',
  stats: { ave: 'ortalama', max: 'en yüksek', min: 'en düşük' },
  zoneNames: {
    Dzienna: 'gündüz',
    Nocna: 'gece',
    Szczytowa: 'puant',
    Pozaszczytowa: 'puant dışı',
    Całodobowa: 'tek zamanlı',
    'Szczyt przedpołudniowy': 'öğleden önce puant',
    'Pozostałe godziny doby': 'günün geri kalanı',
    'Szczyt popołudniowy': 'öğleden sonra puant',
  },
};

export const PDF_TEXTS: Record<Language, PdfTexts> = { en, pl, tr };

/** `{name}` placeholders filled. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
}
