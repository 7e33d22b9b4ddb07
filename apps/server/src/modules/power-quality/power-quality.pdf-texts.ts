import type { Language } from '@phasewatch/shared';

/** The power-quality PDF's texts (en, pl, tr); `{{name}}` placeholders are filled by `fillText`. */
export interface PqPdfTexts {
  title: string;
  device: string;
  location: string;
  noLocation: string;
  period: string;
  timezone: string;
  created: string;
  interval: string;
  indicative: string;
  methodTitle: string;
  method: string[];
  verdictTitle: string;
  verdict: Record<'pass' | 'fail' | 'not-assessable', string>;
  statsTitle: string;
  phase: string;
  n: string;
  n1: string;
  n2: string;
  invalid: string;
  flagged: string;
  min: string;
  max: string;
  p05: string;
  p95: string;
  result: string;
  statsNote: string;
  trendTitle: string;
  eventsTitle: string;
  noEvents: string;
  kind: Record<'dip' | 'swell' | 'interruption', string>;
  length: Record<'short' | 'long', string>;
  start: string;
  duration: string;
  extreme: string;
  eventsNote: string;
  more: string;
  overvoltageTitle: string;
  overvoltageNote: string;
  noOvervoltage: string;
  day: string;
  count: string;
  value: string;
  frequencyTitle: string;
  frequency: string;
  noFrequency: string;
  page: string;
}

const en: PqPdfTexts = {
  title: 'Supply voltage report (EN 50160)',
  device: 'Device',
  location: 'Location',
  noLocation: 'not set',
  period: 'Period',
  timezone: 'Time zone',
  created: 'Created',
  interval: 'Reporting interval',
  indicative:
    'Indicative, not a Class A/S instrument: computed from the meter’s own readings; an IEC 61000-4-30 Class A/S analyser measures differently.',
  methodTitle: 'Method',
  method: [
    'Nominal voltage Un = 230 V. 10-minute values: the rms aggregate (square root of the mean of squares) of each phase’s readings in 10-minute intervals aligned to the clock.',
    'A 10-minute value is invalid when its readings cover less than 90 % of it (by the meter’s reporting interval).',
    'Dips and swells: a reading whose minimum falls below 207 V or whose maximum exceeds 253 V while its mean stays within them; an interruption: readings whose mean is below 11.5 V (5 % Un), short up to 3 minutes. 10-minute values touched by an event are flagged and left out of the statistics.',
    'EN 50160: at least 95 % of the week’s 10-minute values within 207–253 V (N1/N ≤ 5 %) and all within 195.5–253 V (N2 = 0). Not assessable when fewer than 95 % of the week’s values are valid or flagged.',
  ],
  verdictTitle: 'Verdict',
  verdict: { pass: 'Meets EN 50160', fail: 'Does not meet EN 50160', 'not-assessable': 'Not assessable' },
  statsTitle: '10-minute values per phase',
  phase: 'Phase',
  n: 'N',
  n1: 'N1',
  n2: 'N2',
  invalid: 'Invalid',
  flagged: 'Flagged',
  min: 'Min [V]',
  max: 'Max [V]',
  p05: 'P5 [V]',
  p95: 'P95 [V]',
  result: 'Result',
  statsNote: 'N: valid, unflagged 10-minute values; N1: outside 207–253 V; N2: outside 195.5–253 V.',
  trendTitle: '10-minute mean voltage [V]',
  eventsTitle: 'Events',
  noEvents: 'No dips, swells or interruptions.',
  kind: { dip: 'Dip', swell: 'Swell', interruption: 'Interruption' },
  length: { short: 'short', long: 'long' },
  start: 'Start',
  duration: 'Duration [s]',
  extreme: 'Extreme [V]',
  eventsNote: 'Durations are resolved to the reporting interval ({{seconds}} s).',
  more: '… and {{count}} more',
  overvoltageTitle: 'Overvoltage (10-minute values above 253 V)',
  overvoltageNote: 'When an inverter set to the Polish grid code disconnects.',
  noOvervoltage: 'No 10-minute value above 253 V.',
  day: 'Day',
  count: 'Count',
  value: 'Value [V]',
  frequencyTitle: 'Frequency (indicative)',
  frequency:
    '{{share}} of readings within 49.5–50.5 Hz; {{outside}} outside 47–52 Hz; min {{min}} Hz, max {{max}} Hz (the meter’s own averaging, not 10-second means).',
  noFrequency: 'The meter sends no frequency.',
  page: 'Page {{page}} of {{pages}}',
};

const pl: PqPdfTexts = {
  title: 'Raport napięcia zasilania (EN 50160)',
  device: 'Urządzenie',
  location: 'Lokalizacja',
  noLocation: 'nie ustawiono',
  period: 'Okres',
  timezone: 'Strefa czasowa',
  created: 'Utworzono',
  interval: 'Interwał raportowania',
  indicative:
    'Orientacyjnie, to nie przyrząd klasy A/S: obliczone z odczytów licznika; analizator klasy A/S wg IEC 61000-4-30 mierzy inaczej.',
  methodTitle: 'Metoda',
  method: [
    'Napięcie znamionowe Un = 230 V. Wartości 10-minutowe: agregacja skuteczna (pierwiastek ze średniej kwadratów) odczytów każdej fazy w 10-minutowych przedziałach wyrównanych do zegara.',
    'Wartość 10-minutowa jest nieważna, gdy odczyty pokrywają mniej niż 90 % przedziału (wg interwału raportowania licznika).',
    'Zapady i wzrosty: odczyt, którego minimum spada poniżej 207 V lub maksimum przekracza 253 V, gdy średnia mieści się w tych granicach; przerwa: odczyty o średniej poniżej 11,5 V (5 % Un), krótka do 3 minut. Wartości 10-minutowe dotknięte zdarzeniem są oflagowane i pominięte w statystyce.',
    'EN 50160: co najmniej 95 % wartości 10-minutowych tygodnia w 207–253 V (N1/N ≤ 5 %) i wszystkie w 195,5–253 V (N2 = 0). Nie do oceny, gdy mniej niż 95 % wartości tygodnia jest ważnych lub oflagowanych.',
  ],
  verdictTitle: 'Ocena',
  verdict: { pass: 'Zgodne z EN 50160', fail: 'Niezgodne z EN 50160', 'not-assessable': 'Nie do oceny' },
  statsTitle: 'Wartości 10-minutowe dla każdej fazy',
  phase: 'Faza',
  n: 'N',
  n1: 'N1',
  n2: 'N2',
  invalid: 'Nieważne',
  flagged: 'Oflagowane',
  min: 'Min [V]',
  max: 'Maks [V]',
  p05: 'P5 [V]',
  p95: 'P95 [V]',
  result: 'Wynik',
  statsNote: 'N: ważne, nieoflagowane wartości 10-minutowe; N1: poza 207–253 V; N2: poza 195,5–253 V.',
  trendTitle: 'Średnie 10-minutowe napięcia [V]',
  eventsTitle: 'Zdarzenia',
  noEvents: 'Brak zapadów, wzrostów i przerw.',
  kind: { dip: 'Zapad', swell: 'Wzrost', interruption: 'Przerwa' },
  length: { short: 'krótka', long: 'długa' },
  start: 'Początek',
  duration: 'Czas [s]',
  extreme: 'Skrajna [V]',
  eventsNote: 'Czasy trwania z dokładnością do interwału raportowania ({{seconds}} s).',
  more: '… i {{count}} więcej',
  overvoltageTitle: 'Przepięcia (wartości 10-minutowe powyżej 253 V)',
  overvoltageNote: 'Wtedy falownik ustawiony wg polskich wymagań sieciowych się wyłącza.',
  noOvervoltage: 'Żadna wartość 10-minutowa nie przekroczyła 253 V.',
  day: 'Dzień',
  count: 'Liczba',
  value: 'Wartość [V]',
  frequencyTitle: 'Częstotliwość (orientacyjnie)',
  frequency:
    '{{share}} odczytów w 49,5–50,5 Hz; {{outside}} poza 47–52 Hz; min {{min}} Hz, maks {{max}} Hz (uśrednianie licznika, nie średnie 10-sekundowe).',
  noFrequency: 'Licznik nie wysyła częstotliwości.',
  page: 'Strona {{page}} z {{pages}}',
};

const tr: PqPdfTexts = {
  title: 'Besleme gerilimi raporu (EN 50160)',
  device: 'Cihaz',
  location: 'Konum',
  noLocation: 'ayarlanmadı',
  period: 'Dönem',
  timezone: 'Saat dilimi',
  created: 'Oluşturuldu',
  interval: 'Raporlama aralığı',
  indicative:
    'Gösterge niteliğindedir, A/S sınıfı bir cihaz değildir: sayacın kendi okumalarından hesaplanır; IEC 61000-4-30 A/S sınıfı bir analizör farklı ölçer.',
  methodTitle: 'Yöntem',
  method: [
    'Anma gerilimi Un = 230 V. 10 dakikalık değerler: her fazın okumalarının saate hizalı 10 dakikalık aralıklardaki etkin (karelerin ortalamasının karekökü) toplamı.',
    'Okumalar aralığın %90’ından azını kapsıyorsa (sayacın raporlama aralığına göre) 10 dakikalık değer geçersizdir.',
    'Çökme ve yükselmeler: ortalaması sınırlar içindeyken en düşüğü 207 V altına inen veya en yükseği 253 V’u aşan okuma; kesinti: ortalaması 11,5 V (%5 Un) altındaki okumalar, 3 dakikaya kadar kısa. Bir olayın dokunduğu 10 dakikalık değerler işaretlenir ve istatistiğe katılmaz.',
    'EN 50160: haftanın 10 dakikalık değerlerinin en az %95’i 207–253 V içinde (N1/N ≤ %5) ve tümü 195,5–253 V içinde (N2 = 0). Haftanın değerlerinin %95’inden azı geçerli veya işaretliyse değerlendirilemez.',
  ],
  verdictTitle: 'Sonuç',
  verdict: { pass: 'EN 50160’a uygun', fail: 'EN 50160’a uygun değil', 'not-assessable': 'Değerlendirilemez' },
  statsTitle: 'Faz başına 10 dakikalık değerler',
  phase: 'Faz',
  n: 'N',
  n1: 'N1',
  n2: 'N2',
  invalid: 'Geçersiz',
  flagged: 'İşaretli',
  min: 'En düşük [V]',
  max: 'En yüksek [V]',
  p05: 'P5 [V]',
  p95: 'P95 [V]',
  result: 'Sonuç',
  statsNote: 'N: geçerli, işaretsiz 10 dakikalık değerler; N1: 207–253 V dışında; N2: 195,5–253 V dışında.',
  trendTitle: '10 dakikalık ortalama gerilim [V]',
  eventsTitle: 'Olaylar',
  noEvents: 'Çökme, yükselme veya kesinti yok.',
  kind: { dip: 'Çökme', swell: 'Yükselme', interruption: 'Kesinti' },
  length: { short: 'kısa', long: 'uzun' },
  start: 'Başlangıç',
  duration: 'Süre [sn]',
  extreme: 'Uç değer [V]',
  eventsNote: 'Süreler raporlama aralığı ({{seconds}} sn) hassasiyetindedir.',
  more: '… ve {{count}} tane daha',
  overvoltageTitle: 'Aşırı gerilim (253 V üzerindeki 10 dakikalık değerler)',
  overvoltageNote: 'Polonya şebeke koduna ayarlı bir eviricinin devreden çıktığı anlar.',
  noOvervoltage: '253 V üzerinde 10 dakikalık değer yok.',
  day: 'Gün',
  count: 'Sayı',
  value: 'Değer [V]',
  frequencyTitle: 'Frekans (gösterge niteliğinde)',
  frequency:
    'Okumaların {{share}} kadarı 49,5–50,5 Hz içinde; {{outside}} okuma 47–52 Hz dışında; en düşük {{min}} Hz, en yüksek {{max}} Hz (sayacın kendi ortalaması, 10 saniyelik ortalamalar değil).',
  noFrequency: 'Sayaç frekans göndermiyor.',
  page: 'Sayfa {{page}} / {{pages}}',
};

export const PQ_PDF_TEXTS: Record<Language, PqPdfTexts> = { en, pl, tr };

export function fillText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));
}
