import type { Writable } from 'node:stream';
import { type Language, localWeek } from '@phasewatch/shared';
import { renderPowerQualityPdf } from './power-quality.pdf.js';
import { PQ_PDF_TEXTS } from './power-quality.pdf-texts.js';
import { loadPowerQualityReport, type PowerQualitySource, resolveWeek } from './power-quality.service.js';

/**
 * The power-quality PDF as an export job runs it (POST /api/exports with `report: 'power-quality'`): the
 * request is checked as the report route checks it before it is queued; the job then loads the report from
 * the storage handles and renders it into the job's sink. Self-contained (plain inputs, a storage handle, a
 * sink, a progress callback), so the lead can move it into the worker-thread pool of issue 28.
 */
export interface PowerQualityPdfJob {
  /** 404 / 400 (field `week`) as the report route; the week's period as UTC epoch ms. */
  check(userId: number, deviceId: number, week: string): Promise<{ from: number; to: number }>;
  render(
    input: { userId: number; deviceId: number; week: string; language: Language },
    sink: Writable,
    opts: { signal?: AbortSignal; progress?: (share: number) => void },
  ): Promise<void>;
}

export function powerQualityPdfJob(src: PowerQualitySource, now: () => number = Date.now): PowerQualityPdfJob {
  return {
    async check(userId, deviceId, week) {
      const w = await resolveWeek(src, userId, deviceId, week, now());
      return localWeek(week, w.tz);
    },
    async render({ userId, deviceId, week, language }, sink, opts) {
      const report = await loadPowerQualityReport(src, userId, deviceId, week, now());
      opts.progress?.(0.3);
      await renderPowerQualityPdf({ ...report, language, createdAt: now() }, PQ_PDF_TEXTS[language], sink, {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.progress ? { progress: (s: number) => opts.progress?.(0.3 + 0.7 * s) } : {}),
      });
    },
  };
}
