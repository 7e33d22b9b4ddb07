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
  /** The location's prosumer ledger (issue 33). */
  ledger: {
    title: string;
    schemes: Record<'net-metering' | 'net-billing-rcem' | 'net-billing-rce', string>;
    month: string;
    nettedImport: string;
    nettedExport: string;
    price: string;
    credited: string;
    used: string;
    refunded: string;
    lost: string;
    balance: string;
    energyCost: string;
    cashForEnergy: string;
    bankKWh: string;
    noPrice: string;
    depositNote: string;
    bankNote: string;
    missingPrice: string;
    estimated: string;
  };
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
  ledger: {
    title: 'Prosumer ledger of the location',
    schemes: {
      'net-metering': 'net-metering (kWh bank)',
      'net-billing-rcem': 'net-billing at the monthly price RCEm',
      'net-billing-rce': 'net-billing at the hourly price RCE',
    },
    month: 'Month',
    nettedImport: 'Netted import [kWh]',
    nettedExport: 'Netted export [kWh]',
    price: 'Price [PLN/MWh]',
    credited: 'Credited',
    used: 'Used',
    refunded: 'Refunded',
    lost: 'Lost',
    balance: 'Deposit',
    energyCost: 'Energy cost',
    cashForEnergy: 'Cash for energy',
    bankKWh: 'Bank [kWh]',
    noPrice: 'no price',
    depositNote:
      'Money in PLN, rounded to the grosz. Each month’s netted export × price × coefficient becomes a tranche, usable from the next month for 12 months, oldest first, for the energy part of the bills only.',
    bankNote:
      'Each month’s netted export × ratio enters the bank; netted import is taken from it, oldest kWh first; kWh left 12 months after they entered are lost. Money in PLN, rounded to the grosz.',
    missingPrice: 'A month or hour without a published price credits nothing; no price is invented.',
    estimated: 'The price list has no energy part: the energy cost uses the whole price (estimated).',
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
  ledger: {
    title: 'Rozliczenie prosumenckie lokalizacji',
    schemes: {
      'net-metering': 'net-metering (opusty, magazyn kWh)',
      'net-billing-rcem': 'net-billing po miesięcznej cenie RCEm',
      'net-billing-rce': 'net-billing po godzinowej cenie RCE',
    },
    month: 'Miesiąc',
    nettedImport: 'Pobór po bilansowaniu [kWh]',
    nettedExport: 'Oddanie po bilansowaniu [kWh]',
    price: 'Cena [zł/MWh]',
    credited: 'Zaliczone',
    used: 'Użyte',
    refunded: 'Zwrócone',
    lost: 'Utracone',
    balance: 'Depozyt',
    energyCost: 'Koszt energii',
    cashForEnergy: 'Do zapłaty za energię',
    bankKWh: 'Magazyn [kWh]',
    noPrice: 'brak ceny',
    depositNote:
      'Kwoty w zł, zaokrąglone do grosza. Oddanie po bilansowaniu w miesiącu × cena × współczynnik tworzy transzę, dostępną od następnego miesiąca przez 12 miesięcy, od najstarszej, wyłącznie na część energetyczną rachunków.',
    bankNote:
      'Oddanie po bilansowaniu w miesiącu × współczynnik trafia do magazynu; pobór jest z niego pokrywany, od najstarszych kWh; kWh niewykorzystane po 12 miesiącach przepadają. Kwoty w zł, zaokrąglone do grosza.',
    missingPrice: 'Miesiąc lub godzina bez opublikowanej ceny nie daje żadnego zaliczenia; ceny nie są zmyślane.',
    estimated: 'Cennik nie ma części energetycznej: koszt energii liczony z całej ceny (szacunek).',
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
  ledger: {
    title: 'Konumun üretici-tüketici defteri',
    schemes: {
      'net-metering': 'net ölçüm (kWh bankası)',
      'net-billing-rcem': 'aylık RCEm fiyatıyla net faturalama',
      'net-billing-rce': 'saatlik RCE fiyatıyla net faturalama',
    },
    month: 'Ay',
    nettedImport: 'Mahsup sonrası çekiş [kWh]',
    nettedExport: 'Mahsup sonrası veriş [kWh]',
    price: 'Fiyat [PLN/MWh]',
    credited: 'Alacaklanan',
    used: 'Kullanılan',
    refunded: 'İade edilen',
    lost: 'Yanan',
    balance: 'Depozito',
    energyCost: 'Enerji bedeli',
    cashForEnergy: 'Enerji için ödenecek',
    bankKWh: 'Banka [kWh]',
    noPrice: 'fiyat yok',
    depositNote:
      'Tutarlar PLN, kuruşa yuvarlanmış. Her ayın mahsup sonrası verişi × fiyat × katsayı bir dilim olur; ertesi aydan itibaren 12 ay, en eskisinden başlayarak yalnızca faturaların enerji kısmı için kullanılır.',
    bankNote:
      'Her ayın mahsup sonrası verişi × oran bankaya girer; çekiş en eski kWh’den başlayarak bankadan karşılanır; girişinden 12 ay sonra kalan kWh yanar. Tutarlar PLN, kuruşa yuvarlanmış.',
    missingPrice: 'Yayımlanmış fiyatı olmayan bir ay ya da saat hiçbir şey alacaklandırmaz; fiyat uydurulmaz.',
    estimated: 'Tarifede enerji kısmı yok: enerji bedeli fiyatın tamamıyla hesaplandı (tahmini).',
  },
};

export const PDF_TEXTS: Record<Language, PdfTexts> = { en, pl, tr };

/** `{name}` placeholders filled. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
}
