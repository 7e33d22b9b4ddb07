import { createRequire } from 'node:module';
import { type Language, type Ledger, type ParameterInfo, parameterInfo, type ReadingInterval } from '@phasewatch/shared';
import PDFDocument from 'pdfkit';
import { fill, PDF_TEXTS, type PdfTexts } from './pdf-texts.js';
import { ZonedIso } from './zoned-iso.js';

/*
 * The PDF report: a document a user would hand to an electrician or a landlord. Device, location, period,
 * energy totals (and cost per tariff zone when the device has a tariff), a vector chart, minimum / maximum /
 * average per parameter, then the table, paged. Noto Sans is embedded (subset, with a ToUnicode map, so the
 * text stays extractable) because the PDF base-14 fonts cannot draw Polish or Turkish letters (ł, ś, ş, ğ, ı).
 * Black on white with grey fills and dash patterns: it reads the same printed in black and white.
 */

const require = createRequire(import.meta.url);
const FONT_REGULAR = require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf');
const FONT_BOLD = require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf');

const LOCALES: Record<Language, string> = { en: 'en-GB', pl: 'pl-PL', tr: 'tr-TR' };

/** Cost per tariff zone of the period, when the device has a tariff (filled by the tariffs module). */
export interface TariffCostSection {
  currency: string;
  zones: { name: string; energyKwh: number; cost: number }[];
  totalKwh: number;
  totalCost: number;
}

/**
 * The prosumer ledger of the device's location over the report's months (issue 33; filled by the prosumer
 * module for a location's grid meter or PV): the months as `GET /api/locations/{id}/prosumer/ledger` answers them.
 */
export type LedgerSection = Pick<Ledger, 'scheme' | 'energyEstimated' | 'months'>;

export interface PdfStat {
  param: string;
  unit: string;
  min: number | null;
  max: number | null;
  avg: number | null;
  /** Energy of a counter over the period. */
  total: number | null;
}

export interface PdfReport {
  language: Language;
  tz: string;
  device: { name: string; model: string; typeName: string; mac: string };
  location: string | null;
  from: number;
  to: number;
  interval: ReadingInterval;
  createdAt: number;
  /** Headline energy figures (the device's energy counters): used, or produced for producers. */
  energy: { produced: boolean; kwh: number | null };
  costs: TariffCostSection | null;
  /** Absent or null: no ledger section (the device is not at a prosumer location). */
  ledger?: LedgerSection | null;
  stats: PdfStat[];
  /** The chart: bucket starts, the energy per bucket (bars), and up to three averages of one unit (lines). */
  chart: {
    ts: number[];
    bucketMs: number;
    energy: (number | null)[] | null;
    lines: { param: string; unit: string; values: (number | null)[] }[];
  };
  /** The table: a row per reading or bucket. */
  table: { params: string[]; ts: ArrayLike<number>; cols: ArrayLike<number>[] };
}

const PAGE = { margin: 40, width: 595.28, height: 841.89 };
const INK = '#000000';
const GREY = '#555555';
const LIGHT = '#d0d0d0';
const DASHES: [number, number][] = [
  [0, 0],
  [5, 3],
  [1.5, 2],
];

/** A parameter's label in the report's language: its quantity, phase and statistic, then its code. */
export function parameterLabel(t: PdfTexts, param: string): string {
  const info: ParameterInfo | undefined = parameterInfo(param);
  if (!info) return param;
  const parts = [t.groups[info.group]];
  if (info.phase) parts.push(fill(t.phase, { n: info.phase }));
  const stat = /^(p|v|i|pf)(ave|max|min)\d$/.exec(param)?.[2] as keyof PdfTexts['stats'] | undefined;
  if (stat) parts.push(t.stats[stat]);
  return `${parts.join(' ')} (${param})`;
}

/** What every section of the report draws with: the document, texts, formats and the page's box. */
interface Pen {
  doc: PDFKit.PDFDocument;
  r: PdfReport;
  t: PdfTexts;
  left: number;
  width: number;
  /** A reading's time in the report's zone: "2026-03-29 02:15 +02". */
  when(ts: number): string;
  /** A figure with at most `digits` places, "—" for none. */
  num(v: number | null, digits?: number): string;
  /** A table column's figure: always `digits` places ("3.403" beside "3.580", not "3.58"). */
  fixed(v: number, digits: number): string;
}

/** Renders the report into a PDFKit document (a readable stream of the file; ended here). */
export function renderPdf(r: PdfReport): PDFKit.PDFDocument {
  const t = PDF_TEXTS[r.language];
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    lang: r.language,
    info: { Title: `${t.title}: ${r.device.name}`, Author: 'Phasewatch', Creator: 'Phasewatch' },
  });
  doc.registerFont('body', FONT_REGULAR);
  doc.registerFont('bold', FONT_BOLD);
  const pen = penFor(doc, r, t);
  drawFacts(pen);
  drawEnergy(pen);
  if (r.costs) drawCosts(pen, r.costs);
  if (r.ledger && r.ledger.scheme !== 'none') drawLedger(pen, r.ledger);
  if (r.chart.ts.length > 0 && (r.chart.energy || r.chart.lines.length)) drawCharts(pen);
  drawSummary(pen);
  drawTable(pen);
  drawPageNumbers(pen);
  doc.end();
  return doc;
}

function penFor(doc: PDFKit.PDFDocument, r: PdfReport, t: PdfTexts): Pen {
  const locale = LOCALES[r.language];
  const iso = new ZonedIso(r.tz);
  const nf = new Map<number, Intl.NumberFormat>();
  return {
    doc,
    r,
    t,
    left: PAGE.margin,
    width: PAGE.width - 2 * PAGE.margin,
    when: (ts) =>
      iso
        .format(ts)
        .replace('T', ' ')
        .replace(/:00([+-])/, ' $1'),
    num: (v, digits = 3) => {
      if (v === null || Number.isNaN(v)) return '—';
      let f = nf.get(digits);
      if (!f) {
        f = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, useGrouping: true });
        nf.set(digits, f);
      }
      return f.format(v);
    },
    fixed: (v, digits) =>
      new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: true }).format(v),
  };
}

/** The heading and the report's facts: device, location, period, interval, zone, when it was made. */
function drawFacts({ doc, r, t, left, width, when }: Pen): void {
  doc.font('bold').fontSize(18).fillColor(INK).text(t.title, left, PAGE.margin);
  doc.moveDown(0.3);
  const facts: [string, string][] = [
    [t.device, `${r.device.name} (${r.device.typeName}${r.device.model ? `, ${r.device.model}` : ''}, ${r.device.mac})`],
    [t.location, r.location ?? t.noLocation],
    [t.period, `${when(r.from)} – ${when(r.to)}`],
    [t.interval, t.intervals[r.interval] ?? r.interval],
    [t.timezone, r.tz],
    [t.created, when(Math.floor(r.createdAt / 60_000) * 60_000)],
  ];
  for (const [k, v] of facts) {
    const y = doc.y;
    doc.font('bold').fontSize(10).text(k, left, y, { width: 110 });
    doc
      .font('body')
      .fontSize(10)
      .text(v, left + 115, y, { width: width - 115 });
    doc.moveDown(0.15);
  }
}

/** The period's energy, used or produced. */
function drawEnergy({ doc, r, t, left, num }: Pen): void {
  doc.moveDown(0.6);
  doc.font('bold').fontSize(13).text(t.energy, left);
  doc.moveDown(0.2);
  if (r.energy.kwh === null) doc.font('body').fontSize(10).text(t.noEnergy, left);
  else
    doc
      .font('body')
      .fontSize(10)
      .text(`${r.energy.produced ? t.energyProduced : t.energyUsed}: `, left, doc.y, { continued: true })
      .font('bold')
      .text(`${num(r.energy.kwh)} kWh`);
}

/** Energy and cost per tariff zone, and the total. */
function drawCosts({ doc, t, left, width, fixed }: Pen, costs: NonNullable<PdfReport['costs']>): void {
  doc.moveDown(0.6);
  doc.font('bold').fontSize(13).text(t.costTitle, left);
  doc.moveDown(0.2);
  const cols = [t.zone, 'kWh', `${t.cost} [${costs.currency}]`];
  // One decimal rule per column (kWh 3 places, money 2); a preset's zone name in the report's language.
  const zone = (name: string) => name.replace(/^(\d+) · (.+)$/, (_, a: string, w: string) => `${a} · ${t.zoneNames[w] ?? w}`);
  const rows = costs.zones.map((z) => [zone(z.name), fixed(z.energyKwh, 3), fixed(z.cost, 2)]);
  rows.push([t.total, fixed(costs.totalKwh, 3), fixed(costs.totalCost, 2)]);
  simpleTable(doc, cols, rows, [width * 0.5, width * 0.25, width * 0.25]);
  doc.font('body').fontSize(8).fillColor(GREY).text(t.costNote, left).fillColor(INK);
}

/**
 * The location's prosumer ledger per month: the deposit (credited, used, refunded, lost, balance) or the
 * kWh bank, beside the energy cost and the cash left to pay for energy.
 */
function drawLedger({ doc, t, left, width, fixed }: Pen, ledger: LedgerSection): void {
  const l = t.ledger;
  doc.moveDown(0.6);
  if (doc.y + 90 > PAGE.height - PAGE.margin) doc.addPage();
  doc.font('bold').fontSize(13).text(l.title, left);
  doc
    .font('body')
    .fontSize(9)
    .text(l.schemes[ledger.scheme as keyof typeof l.schemes] ?? ledger.scheme, left);
  doc.moveDown(0.2);
  const money = (v: number | null) => (v === null ? '—' : fixed(v, 2));
  const kwh = (v: number) => fixed(v, 3);
  const bank = ledger.scheme === 'net-metering';
  const cols: [string, (m: LedgerSection['months'][number]) => string][] = bank
    ? [
        [l.nettedImport, (m) => kwh(m.nettedImportKWh)],
        [l.nettedExport, (m) => kwh(m.nettedExportKWh)],
        [l.bankKWh, (m) => kwh(m.bankKWh)],
        [l.energyCost, (m) => money(m.energyCost)],
        [l.used, (m) => money(m.used)],
        [l.cashForEnergy, (m) => money(m.cashForEnergy)],
      ]
    : [
        [l.nettedExport, (m) => kwh(m.nettedExportKWh)],
        [l.price, (m) => (m.price === null ? (m.missingPrice ? l.noPrice : '—') : fixed(m.price, 2))],
        [l.credited, (m) => money(m.credited)],
        [l.used, (m) => money(m.used)],
        [l.refunded, (m) => money(m.refunded)],
        [l.lost, (m) => money(m.lost)],
        [l.balance, (m) => money(m.balance)],
        [l.energyCost, (m) => money(m.energyCost)],
        [l.cashForEnergy, (m) => money(m.cashForEnergy)],
      ];
  const first = 40;
  const rest = (width - first) / cols.length;
  simpleTable(
    doc,
    [l.month, ...cols.map(([h]) => h)],
    ledger.months.map((m) => [m.month, ...cols.map(([, cell]) => cell(m))]),
    [first, ...cols.map(() => rest)],
    7,
    3,
  );
  const notes = [bank ? l.bankNote : l.depositNote];
  if (ledger.months.some((m) => m.missingPrice)) notes.push(l.missingPrice);
  if (ledger.energyEstimated) notes.push(l.estimated);
  doc.font('body').fontSize(8).fillColor(GREY).text(notes.join(' '), left, doc.y, { width }).fillColor(INK);
}

const CHART_H = 170;

/** One chart under its title, on a new page when it does not fit; the text goes on below its box. */
function drawTitledChart(pen: Pen, title: string, r: PdfReport): void {
  const { doc, left, width } = pen;
  if (doc.y + CHART_H + 40 > PAGE.height - PAGE.margin) doc.addPage();
  doc.font('bold').fontSize(13).text(title, left);
  doc.moveDown(0.3);
  // Axis labels move the text cursor: the chart's box decides where the text goes on.
  const y = doc.y;
  drawChart(doc, r, { x: left, y, w: width, h: CHART_H }, pen.num, pen.when);
  doc.x = left;
  doc.y = y + CHART_H + 22;
}

/** The energy chart and/or the values chart, and the legend of the lines (dash patterns, not colours). */
function drawCharts(pen: Pen): void {
  const { doc, r, t, left } = pen;
  doc.moveDown(0.8);
  const unit = r.chart.lines[0]?.unit ?? '';
  drawTitledChart(pen, r.chart.energy ? `${t.chartEnergy} [kWh]` : `${t.chartValues} [${unit}]`, r);
  if (r.chart.energy && r.chart.lines.length)
    drawTitledChart(pen, `${t.chartValues} [${unit}]`, { ...r, chart: { ...r.chart, energy: null } });
  if (!r.chart.lines.length) return;
  let x = left;
  const y = doc.y;
  r.chart.lines.forEach((l, i) => {
    const [d, s] = DASHES[i % DASHES.length] as [number, number];
    doc.save().lineWidth(1.4).strokeColor(INK);
    if (d) doc.dash(d, { space: s });
    doc
      .moveTo(x, y + 5)
      .lineTo(x + 22, y + 5)
      .stroke()
      .restore();
    const label = parameterLabel(t, l.param);
    doc
      .font('body')
      .fontSize(8)
      .text(label, x + 26, y, { lineBreak: false });
    x += 32 + doc.widthOfString(label);
  });
  doc.x = left;
  doc.y = y + 16;
}

/** Minimum, maximum, average and sum per parameter. */
function drawSummary({ doc, r, t, left, width, num }: Pen): void {
  doc.moveDown(0.6);
  if (doc.y + 80 > PAGE.height - PAGE.margin) doc.addPage();
  doc.font('bold').fontSize(13).text(t.summary, left);
  doc.moveDown(0.2);
  simpleTable(
    doc,
    [t.parameter, t.unit, t.minimum, t.maximum, t.average, t.sum],
    r.stats.map((s) => [parameterLabel(t, s.param), s.unit, num(s.min), num(s.max), num(s.avg), s.total === null ? '' : num(s.total)]),
    [width * 0.33, width * 0.11, width * 0.14, width * 0.14, width * 0.14, width * 0.14],
  );
  if (r.stats.some((s) => s.total !== null)) doc.font('body').fontSize(8).fillColor(GREY).text(t.estimatedNote, left).fillColor(INK);
}

/** The readings table, paged: at most six parameters side by side, more in further passes. */
function drawTable({ doc, r, t, left, width, num, when }: Pen): void {
  doc.addPage();
  doc.font('bold').fontSize(13).text(t.table, left);
  doc.moveDown(0.2);
  const n = r.table.ts.length;
  if (n === 0) doc.font('body').fontSize(10).text(t.noData, left);
  const per = 6;
  for (let g = 0; g < r.table.params.length && n > 0; g += per) {
    const params = r.table.params.slice(g, g + per);
    const headers = [t.time, ...params.map((p) => `${p} [${parameterInfo(p)?.unit ?? ''}]`)];
    const timeW = 140;
    const colW = (width - timeW) / Math.max(1, params.length);
    const widths = [timeW, ...params.map(() => colW)];
    if (g > 0) doc.addPage();
    const rows: string[][] = [];
    for (let i = 0; i < n; i++) {
      rows.push([when(r.table.ts[i] as number), ...params.map((_, j) => num((r.table.cols[g + j] as ArrayLike<number>)[i] as number, 6))]);
    }
    simpleTable(doc, headers, rows, widths, 7.5);
  }
}

/** "Device · page 2 of 5" at the foot of every page. */
function drawPageNumbers({ doc, r, t, left, width }: Pen): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('body')
      .fontSize(8)
      .fillColor(GREY)
      .text(`${r.device.name} · ${fill(t.page, { page: i + 1, pages: range.count })}`, left, PAGE.height - 28, {
        width,
        align: 'right',
        lineBreak: false,
      })
      .fillColor(INK);
    doc.page.margins.bottom = bottom;
  }
}

/**
 * A table with a header row repeated on every page it runs over; right-aligned figures. `headerLines` above
 * 1 lets the header's texts wrap onto that many lines (narrow columns with long names: the ledger).
 */
function simpleTable(doc: PDFKit.PDFDocument, headers: string[], rows: string[][], widths: number[], size = 9, headerLines = 1): void {
  const left = PAGE.margin;
  const rowH = size + 5;
  const headH = headerLines > 1 ? headerLines * (size + 2) + 4 : rowH;
  const bottom = PAGE.height - PAGE.margin - 10;
  const header = () => {
    let x = left;
    const y = doc.y;
    doc.font('bold').fontSize(size);
    headers.forEach((h, i) => {
      const box = { width: (widths[i] ?? 60) - 4, align: i === 0 ? ('left' as const) : ('right' as const), ellipsis: true };
      doc.text(h, x + 2, y + 1, headerLines > 1 ? { ...box, height: headH - 2 } : { ...box, lineBreak: false });
      x += widths[i] ?? 60;
    });
    doc
      .moveTo(left, y + headH)
      .lineTo(left + widths.reduce((a, b) => a + b, 0), y + headH)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke();
    doc.y = y + headH + 2;
  };
  header();
  doc.font('body').fontSize(size);
  rows.forEach((row, k) => {
    if (doc.y + rowH > bottom) {
      doc.addPage();
      header();
      doc.font('body').fontSize(size);
    }
    const y = doc.y;
    if (k % 2 === 1) {
      doc
        .rect(
          left,
          y - 1,
          widths.reduce((a, b) => a + b, 0),
          rowH,
        )
        .fillColor('#f0f0f0')
        .fill()
        .fillColor(INK);
    }
    let x = left;
    row.forEach((cell, i) => {
      doc.text(cell, x + 2, y, { width: (widths[i] ?? 60) - 4, align: i === 0 ? 'left' : 'right', lineBreak: false, ellipsis: true });
      x += widths[i] ?? 60;
    });
    doc.y = y + rowH;
  });
  doc.x = left;
  doc.moveDown(0.4);
}

/** Axis steps: 1, 2 or 5 times a power of ten, about five of them. */
function niceStep(range: number): number {
  if (!(range > 0)) return 1;
  const raw = range / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** Bars of energy per bucket or lines of averages, as vector paths with value and time axes. */
function drawChart(
  doc: PDFKit.PDFDocument,
  r: PdfReport,
  box: { x: number; y: number; w: number; h: number },
  num: (v: number | null, digits?: number) => string,
  when: (ts: number) => string,
): void {
  const { ts, bucketMs } = r.chart;
  const series = r.chart.energy ? [r.chart.energy] : r.chart.lines.map((l) => l.values);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const s of series)
    for (const v of s)
      if (v !== null) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
  if (!Number.isFinite(lo)) return;
  if (r.chart.energy) lo = Math.min(0, lo);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const axisW = 46;
  const plot = { x: box.x + axisW, y: box.y, w: box.w - axisW, h: box.h };
  const t0 = r.from;
  const t1 = Math.max(r.to, (ts[ts.length - 1] ?? t0) + bucketMs);
  const xOf = (t: number) => plot.x + ((t - t0) / (t1 - t0)) * plot.w;
  const yOf = (v: number) => plot.y + plot.h - ((v - lo) / (hi - lo)) * plot.h;
  doc.save();
  doc.lineWidth(0.4).strokeColor(LIGHT);
  doc.font('body').fontSize(7).fillColor(GREY);
  for (let v = lo; v <= hi + step / 2; v += step) {
    const y = yOf(v);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.w, y)
      .stroke();
    doc.text(num(Math.round(v / step) * step, 3), box.x, y - 4, { width: axisW - 4, align: 'right', lineBreak: false });
  }
  // Time labels at the start, middle and end.
  for (const f of [0, 0.5, 1]) {
    const t = t0 + (t1 - t0) * f;
    const label = when(t).slice(0, 16);
    const x = xOf(t);
    doc.text(label, Math.min(Math.max(plot.x, x - 40), plot.x + plot.w - 80), plot.y + plot.h + 4, {
      width: 80,
      align: f === 0 ? 'left' : f === 1 ? 'right' : 'center',
      lineBreak: false,
    });
  }
  doc.lineWidth(0.8).strokeColor(INK);
  doc
    .moveTo(plot.x, plot.y)
    .lineTo(plot.x, plot.y + plot.h)
    .lineTo(plot.x + plot.w, plot.y + plot.h)
    .stroke();
  if (r.chart.energy) {
    const values = r.chart.energy;
    const bw = Math.max(0.3, (plot.w * bucketMs) / (t1 - t0) - 0.4);
    doc.fillColor('#7a7a7a');
    for (let i = 0; i < ts.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      const x = xOf(ts[i] as number);
      const y = yOf(Math.max(v, lo));
      const y0 = yOf(Math.max(0, lo));
      doc.rect(x, Math.min(y, y0), bw, Math.max(0.3, Math.abs(y0 - y))).fill();
    }
  } else {
    r.chart.lines.forEach((line, k) => {
      const [d, s] = DASHES[k % DASHES.length] as [number, number];
      doc.save().lineWidth(1.2).strokeColor(INK);
      if (d) doc.dash(d, { space: s });
      let open = false;
      let prevT = Number.NaN;
      for (let i = 0; i < ts.length; i++) {
        const v = line.values[i];
        const t = ts[i] as number;
        // A missing bucket breaks the line instead of joining across it.
        if (v === null || v === undefined || (open && t - prevT > 1.5 * bucketMs)) {
          if (open) doc.stroke();
          open = false;
          if (v === null || v === undefined) continue;
        }
        const x = xOf(t + bucketMs / 2);
        const y = yOf(v);
        if (!open) {
          doc.moveTo(x, y);
          open = true;
        } else doc.lineTo(x, y);
        prevT = t;
      }
      if (open) doc.stroke();
      doc.restore();
    });
  }
  doc.restore();
  doc.x = box.x;
}
