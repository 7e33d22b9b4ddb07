import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Language, type PowerQualityResponse, PQ_LIMITS } from '@phasewatch/shared';
import PDFDocument from 'pdfkit';
import { fillText, type PqPdfTexts } from './power-quality.pdf-texts.js';

/*
 * The power-quality report as a PDF: what a household attaches to a complaint to its operator. Device,
 * location, period, method, the N/N1/N2 table with the verdict, the 10-minute trend with the limit lines,
 * the events and the overvoltage bins. Self-contained: it takes the computed report and its texts and
 * writes to a sink (no storage, no HTTP), so it can run wherever the export jobs run (see the job pool of
 * issue 28). Noto Sans embedded as in the data export's PDF (Polish and Turkish letters). Black on white.
 */

const require = createRequire(import.meta.url);
const FONT_REGULAR = require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf');
const FONT_BOLD = require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf');
const LOCALES: Record<Language, string> = { en: 'en-GB', pl: 'pl-PL', tr: 'tr-TR' };
const PAGE = { margin: 40, width: 595.28, height: 841.89 };
const INK = '#000000';
const GREY = '#555555';
const LIGHT = '#d0d0d0';
/** Rows of the events and overvoltage tables shown at most (the rest counted). */
const MAX_ROWS = 300;
const DASHES: [number, number][] = [
  [0, 0],
  [5, 3],
  [1.5, 2],
];

export interface PqPdfReport extends PowerQualityResponse {
  language: Language;
  createdAt: number;
}

/** Renders the report into `sink` (ended when the file is complete); `progress` gets 0–1 as pages are drawn. */
export async function renderPowerQualityPdf(
  r: PqPdfReport,
  t: PqPdfTexts,
  sink: Writable,
  opts: { signal?: AbortSignal; progress?: (share: number) => void } = {},
): Promise<void> {
  const doc = drawPowerQualityPdf(r, t, opts.progress);
  await pipeline(doc, sink, opts.signal ? { signal: opts.signal } : {});
}

/** The PDFKit document of the report (a readable stream of the file; ended here). */
export function drawPowerQualityPdf(r: PqPdfReport, t: PqPdfTexts, progress?: (share: number) => void): PDFKit.PDFDocument {
  const locale = LOCALES[r.language];
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    lang: r.language,
    info: { Title: `${t.title}: ${r.device.name}`, Author: 'Phasewatch', Creator: 'Phasewatch' },
  });
  doc.registerFont('body', FONT_REGULAR);
  doc.registerFont('bold', FONT_BOLD);
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const v1 = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const volts = (v: number | null) => (v === null ? '—' : v1.format(v));
  const pct = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });
  const when = (ms: number) => new Intl.DateTimeFormat(locale, { timeZone: r.timezone, dateStyle: 'short', timeStyle: 'short' }).format(ms);
  const day = (date: string) =>
    new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(
      Date.parse(`${date}T12:00:00Z`),
    );
  const heading = (text: string, room = 60) => {
    doc.moveDown(0.7);
    if (doc.y + room > PAGE.height - PAGE.margin) doc.addPage();
    doc.font('bold').fontSize(13).fillColor(INK).text(text, left);
    doc.moveDown(0.2);
  };
  const note = (text: string) => doc.font('body').fontSize(8).fillColor(GREY).text(text, left, doc.y, { width }).fillColor(INK);

  doc.font('bold').fontSize(17).fillColor(INK).text(t.title, left, PAGE.margin);
  doc.moveDown(0.3);
  const facts: [string, string][] = [
    [t.device, r.device.name],
    [t.location, r.device.location ?? t.noLocation],
    [t.period, `${r.from} – ${r.to}`],
    [t.timezone, r.timezone],
    [t.interval, `${r.intervalSeconds} s`],
    [t.created, when(r.createdAt)],
  ];
  for (const [k, v] of facts) {
    const y = doc.y;
    doc.font('bold').fontSize(10).text(k, left, y, { width: 120 });
    doc
      .font('body')
      .fontSize(10)
      .text(v, left + 125, y, { width: width - 125 });
    doc.moveDown(0.1);
  }
  doc.moveDown(0.4);
  doc.rect(left, doc.y, width, 0.01).stroke();
  doc.moveDown(0.2);
  note(t.indicative);

  heading(t.verdictTitle);
  doc.font('bold').fontSize(14).text(t.verdict[r.verdict], left);

  heading(t.statsTitle);
  table(
    doc,
    [t.phase, t.n, t.n1, t.n2, t.invalid, t.flagged, t.min, t.p05, t.p95, t.max, t.result],
    r.phases.map((p) => [
      `L${p.phase}`,
      String(p.n),
      p.n1Share === null ? String(p.n1) : `${p.n1} (${pct.format(p.n1Share)})`,
      String(p.n2),
      String(p.invalid),
      String(p.flagged),
      volts(p.min),
      volts(p.p05),
      volts(p.p95),
      volts(p.max),
      t.verdict[p.verdict],
    ]),
    [30, 34, 58, 30, 40, 44, 44, 44, 44, 44, width - 412],
    8,
  );
  note(t.statsNote);
  heading(t.frequencyTitle, 30);
  doc
    .font('body')
    .fontSize(9)
    .text(
      r.frequency
        ? fillText(t.frequency, {
            share: pct.format(r.frequency.withinShare),
            outside: r.frequency.outside47to52,
            min: r.frequency.min.toLocaleString(locale),
            max: r.frequency.max.toLocaleString(locale),
          })
        : t.noFrequency,
      left,
      doc.y,
      { width },
    );
  progress?.(0.3);

  heading(t.trendTitle, 220);
  const chartY = doc.y;
  drawTrend(doc, r, { x: left, y: chartY, w: width, h: 180 }, (d) => day(d));
  doc.x = left;
  doc.y = chartY + 200;
  let lx = left;
  r.trend.phases.forEach((p, i) => {
    const [d, s] = DASHES[i % DASHES.length] as [number, number];
    doc.save().lineWidth(1.2).strokeColor(INK);
    if (d) doc.dash(d, { space: s });
    doc
      .moveTo(lx, doc.y + 5)
      .lineTo(lx + 22, doc.y + 5)
      .stroke()
      .restore();
    doc
      .font('body')
      .fontSize(8)
      .text(`L${p.phase}`, lx + 26, doc.y, { lineBreak: false });
    lx += 60;
  });
  doc.x = left;
  doc.moveDown(1);
  progress?.(0.6);

  heading(t.methodTitle);
  for (const line of t.method) {
    doc.font('body').fontSize(8.5).text(line, left, doc.y, { width });
    doc.moveDown(0.25);
  }

  heading(t.eventsTitle);
  if (r.events.length === 0) doc.font('body').fontSize(10).text(t.noEvents, left);
  else {
    table(
      doc,
      [t.phase, t.eventsTitle, t.start, t.duration, t.extreme],
      r.events
        .slice(0, MAX_ROWS)
        .map((e) => [
          `L${e.phase}`,
          `${t.kind[e.kind]}${e.length ? ` (${t.length[e.length]})` : ''}`,
          e.start,
          String(e.durationSeconds),
          volts(e.extreme),
        ]),
      [40, 130, 165, 80, width - 415],
      8,
    );
    if (r.events.length > MAX_ROWS) note(fillText(t.more, { count: r.events.length - MAX_ROWS }));
  }
  note(fillText(t.eventsNote, { seconds: r.intervalSeconds }));

  heading(t.overvoltageTitle);
  note(t.overvoltageNote);
  doc.moveDown(0.3);
  table(
    doc,
    [t.day, ...r.overvoltageDays.map((d) => day(d.date))],
    [[t.count, ...r.overvoltageDays.map((d) => String(d.count))]],
    [70, ...r.overvoltageDays.map(() => (width - 70) / Math.max(1, r.overvoltageDays.length))],
    8,
  );
  doc.moveDown(0.3);
  if (r.overvoltage.length === 0) doc.font('body').fontSize(10).text(t.noOvervoltage, left);
  else {
    table(
      doc,
      [t.start, t.phase, t.value],
      r.overvoltage.slice(0, MAX_ROWS).map((o) => [o.start, `L${o.phase}`, volts(o.value)]),
      [200, 60, 80],
      8,
    );
    if (r.overvoltage.length > MAX_ROWS) note(fillText(t.more, { count: r.overvoltage.length - MAX_ROWS }));
  }
  progress?.(0.9);

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc
      .font('body')
      .fontSize(8)
      .fillColor(GREY)
      .text(`${r.device.name} · ${fillText(t.page, { page: i + 1, pages: range.count })}`, left, PAGE.height - 28, {
        width,
        align: 'right',
        lineBreak: false,
      });
  }
  doc.end();
  return doc;
}

/** The 10-minute values of each phase (a dash pattern each), the limit lines, and a tick per local day. */
function drawTrend(
  doc: PDFKit.PDFDocument,
  r: PowerQualityResponse,
  box: { x: number; y: number; w: number; h: number },
  day: (date: string) => string,
): void {
  const all = r.trend.phases.flatMap((p) => p.values.filter((v): v is number => v !== null));
  const lo = Math.floor(Math.min(190, ...all) / 5) * 5;
  const hi = Math.ceil(Math.max(260, ...all) / 5) * 5;
  const padL = 34;
  const x = (i: number) => box.x + padL + ((box.w - padL) * i) / Math.max(1, r.bins);
  const y = (v: number) => box.y + box.h * (1 - (v - lo) / (hi - lo));
  doc.save();
  doc
    .rect(box.x + padL, box.y, box.w - padL, box.h)
    .lineWidth(0.5)
    .strokeColor(LIGHT)
    .stroke();
  for (const v of [PQ_LIMITS.lower100, PQ_LIMITS.lower95, PQ_LIMITS.nominal, PQ_LIMITS.upper]) {
    doc
      .moveTo(box.x + padL, y(v))
      .lineTo(box.x + box.w, y(v))
      .lineWidth(v === PQ_LIMITS.nominal ? 0.4 : 0.8)
      .strokeColor(v === PQ_LIMITS.nominal ? LIGHT : GREY)
      .dash(v === PQ_LIMITS.nominal ? 1 : 4, { space: 2 })
      .stroke()
      .undash();
    doc
      .font('body')
      .fontSize(7)
      .fillColor(GREY)
      .text(String(v), box.x, y(v) - 4, { width: padL - 4, align: 'right', lineBreak: false });
  }
  const step = r.trend.stepSeconds * 1000;
  r.overvoltageDays.forEach((d, k) => {
    const start = r.fromMs + k * 86_400_000;
    const i = Math.max(0, (start - r.trend.startMs) / step);
    doc
      .moveTo(x(i), box.y)
      .lineTo(x(i), box.y + box.h)
      .lineWidth(0.3)
      .strokeColor(LIGHT)
      .stroke();
    doc
      .font('body')
      .fontSize(7)
      .fillColor(GREY)
      .text(day(d.date), x(i) + 2, box.y + box.h + 3, { lineBreak: false });
  });
  r.trend.phases.forEach((p, k) => {
    const [d, s] = DASHES[k % DASHES.length] as [number, number];
    doc.lineWidth(0.7).strokeColor(INK);
    if (d) doc.dash(d, { space: s });
    else doc.undash();
    let pen = false;
    p.values.forEach((v, i) => {
      if (v === null) {
        pen = false;
        return;
      }
      if (pen) doc.lineTo(x(i + 0.5), y(v));
      else doc.moveTo(x(i + 0.5), y(v));
      pen = true;
    });
    doc.stroke();
  });
  doc.undash().restore();
  doc.fillColor(INK);
}

function table(doc: PDFKit.PDFDocument, headers: string[], rows: string[][], widths: number[], size = 9): void {
  const left = PAGE.margin;
  const rowH = size + 5;
  const bottom = PAGE.height - PAGE.margin - 10;
  const total = widths.reduce((a, b) => a + b, 0);
  const header = () => {
    let x = left;
    const y = doc.y;
    doc.font('bold').fontSize(size).fillColor(INK);
    headers.forEach((h, i) => {
      doc.text(h, x + 2, y + 1, { width: (widths[i] ?? 60) - 4, align: i === 0 ? 'left' : 'right', lineBreak: false, ellipsis: true });
      x += widths[i] ?? 60;
    });
    doc
      .moveTo(left, y + rowH)
      .lineTo(left + total, y + rowH)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke();
    doc.y = y + rowH + 2;
  };
  header();
  rows.forEach((row, k) => {
    if (doc.y + rowH > bottom) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    if (k % 2 === 1)
      doc
        .rect(left, y - 1, total, rowH)
        .fillColor('#f0f0f0')
        .fill()
        .fillColor(INK);
    let x = left;
    doc.font('body').fontSize(size);
    row.forEach((cell, i) => {
      doc.text(cell, x + 2, y + 1, { width: (widths[i] ?? 60) - 4, align: i === 0 ? 'left' : 'right', lineBreak: false, ellipsis: true });
      x += widths[i] ?? 60;
    });
    doc.y = y + rowH;
  });
  doc.x = left;
  doc.moveDown(0.3);
}
